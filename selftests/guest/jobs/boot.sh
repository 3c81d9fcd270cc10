# The guest came up: nothing else to do.
exit 0
