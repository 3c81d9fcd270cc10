/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The smallest table found to reproduce the crash of unloading a table
 * while the bus scan that its load queued runs (job unload-race): one
 * device whose _STA takes 50 ms, so that the scan is inside it when the
 * table goes.
 */
DefinitionBlock ("unload.aml", "SSDT", 2, "PADTST", "UNLOAD", 0x00000001)
{
	Device (\_SB.UNLD)
	{
		Method (_STA, 0, Serialized)
		{
			Sleep (50)
			Return (0x0F)
		}
	}
}
