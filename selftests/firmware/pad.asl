/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated Processor Aggregator Device (ACPI 6.x section 8.5) for tests.
 *
 * \_SB.PAD0 answers _PUR with the count in NCPU; MODE selects a malformed
 * answer instead. _OST records its arguments for the guest to read back.
 * The guest runs these methods as firmware would, from the module-level
 * code of a small SSDT it loads through ACPI configfs (padfw METHOD [ARG]):
 *   SETM <mode>    choose the _PUR answer (see PURA)
 *   SETN <count>   set the count and Notify(PAD0, 0x80)
 *   NT81           Notify(PAD0, 0x81); NT90 likewise
 *   ARMN <count>   set the count and Notify(PAD0, 0x80) at the next read of
 *                  /sys/bus/acpi/devices/<NTFY>/sun, outside the table load
 * and reads what _OST received from /sys/bus/acpi/devices/<OSTR>/status,
 * which evaluates OSTR's _STA on every read.
 * Build with NO_OST defined (iasl -D NO_OST) for firmware without _OST.
 */
DefinitionBlock ("pad.aml", "SSDT", 2, "PADTST", "PAD", 0x00000001)
{
	Scope (\_SB)
	{
		Device (PAD0)
		{
			Name (_HID, "ACPI000C")
			Name (_UID, Zero)
			Name (NCPU, Zero)
			Name (MODE, Zero)
			Name (OSTC, Zero)
			Name (OST0, Ones)
			Name (OST1, Ones)
			Name (OST2, Ones)

			/*
			 * The answer _PUR gives for MODE. Built here rather than in
			 * _PUR so that iasl does not reject the malformed ones.
			 */
			Method (PURA, 1, Serialized)
			{
				Local0 = Package (0x02) { One, Zero }
				Local0 [One] = NCPU
				Switch (ToInteger (Arg0))
				{
					Case (One)	/* revision 2 */
					{
						Local0 [Zero] = 0x02
					}
					Case (0x02)	/* three elements */
					{
						Local0 = Package (0x03) { One, Zero, Zero }
						Local0 [One] = NCPU
						Local0 [0x02] = NCPU
					}
					Case (0x03)	/* one element */
					{
						Local0 = Package (0x01) { One }
					}
					Case (0x04)	/* count is a String */
					{
						Local0 [One] = "2"
					}
					Case (0x05)	/* revision is a String */
					{
						Local0 [Zero] = "1"
					}
					Case (0x06)	/* not a Package */
					{
						Local0 = NCPU
					}
					Case (0x07)	/* count is a Buffer */
					{
						Local0 [One] = Buffer (0x04) { 0x02 }
					}
					Case (0x08)	/* the method faults: divide by zero */
					{
						Local1 = Zero
						Local0 [One] = (NCPU / Local1)
					}
					Case (0x09)	/* count that needs 64 bits (64-bit DSDT only) */
					{
						Local0 [One] = 0x0000000100000002
					}
					Case (0x10)	/* count is Ones: 0xFFFFFFFF in a 32-bit namespace */
					{
						Local0 [One] = Ones
					}
				}
				Return (Local0)
			}

			Method (_PUR, 0, Serialized)
			{
				Return (PURA (MODE))
			}

#ifndef NO_OST
			Method (_OST, 3, Serialized)
			{
				CreateDWordField (Arg2, Zero, IDLD)
				OST0 = Arg0
				OST1 = Arg1
				OST2 = IDLD
				OSTC++
			}
#endif

			Method (SETM, 1, Serialized)
			{
				MODE = Arg0
			}

			Method (SETN, 1, Serialized)
			{
				NCPU = Arg0
				Notify (PAD0, 0x80)
			}

			/*
			 * A Notify made as a GPE's method would make it, with no table
			 * load and no bus scan running (scripts/bench): ARMN stores the
			 * count, and NTFY's _SUN, which the kernel evaluates on each
			 * read of its sun attribute and never in a bus scan, sets it
			 * and makes the Notify once.
			 */
			Name (ARMC, Zero)
			Name (ARMD, Zero)
			Method (ARMN, 1, Serialized)
			{
				ARMC = Arg0
				ARMD = One
			}

			Device (NTFY)
			{
				Name (_ADR, 0x03)
				Method (_SUN, 0, Serialized)
				{
					If (ARMD)
					{
						ARMD = Zero
						NCPU = ARMC
						Notify (PAD0, 0x80)
					}
					Return (Zero)
				}
			}

			Method (NT81, 0, Serialized)
			{
				Notify (PAD0, 0x81)
			}

			Method (NT90, 0, Serialized)
			{
				Notify (PAD0, 0x90)
			}

			/*
			 * Bus scans: every scan of the namespace (the kernel runs one
			 * after each table load) evaluates the _STA of every device,
			 * so SCAN's counts them, and SCNV's reports the count without
			 * changing it. padfw waits for the scan its table load queued.
			 */
			Name (SCNC, Zero)
			Device (SCAN)
			{
				Name (_ADR, One)
				Method (_STA, 0, Serialized)
				{
					SCNC++
					Return (0x0F)
				}
			}

			Device (SCNV)
			{
				Name (_ADR, 0x02)
				Method (_STA, 0, Serialized)
				{
					Return ((((SCNC & 0x0FFFFFFF) << 4) | 0x0F))
				}
			}

			/*
			 * What _OST last received, in _STA: bits 0-3 present and
			 * functioning, 4-11 the number of calls (mod 256), 12-15
			 * Arg1 (status), 16-23 Arg0 (event), 24-31 the idled count.
			 */
			Device (OSTR)
			{
				Name (_ADR, Zero)
				Method (_STA, 0, Serialized)
				{
					Return ((((OST2 & 0xFF) << 24) | ((OST0 & 0xFF) << 16) |
						((OST1 & 0x0F) << 12) | ((OSTC & 0xFF) << 4) | 0x0F))
				}
			}
		}
	}
}
