// A diffsched fn bad input: not C at all.
this is { not ( C
