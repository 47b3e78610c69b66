"""Design search (`koloda tune`, docs/tune.md): the variants of a rule file that meet a designer's
targets on the report's measures, each played on the same deals as the base game."""
