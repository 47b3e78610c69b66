"""Reports of simulations: per-game records in, summaries, comparisons, tables, files and plots out.

Pure: nothing here plays a game or imports the engine, so every number can be tested on records
made by hand (tests/test_report_*.py)."""
