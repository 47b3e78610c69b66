"""Simulation: many seeded games between agents, played to records (koloda/report makes the report)."""
from koloda.sim.play import Position, game_seed, play_game, seating
from koloda.sim.pool import Table, simulate_parallel
from koloda.sim.result import SimulationResult
from koloda.sim.sequential import simulate
from koloda.sim.timing import ESTIMATE_FROM, duration_text, expected_seconds, simulate_timed

__all__ = ["Position", "game_seed", "play_game", "seating", "Table", "simulate_parallel", "SimulationResult",
           "simulate", "ESTIMATE_FROM", "duration_text", "expected_seconds", "simulate_timed"]
