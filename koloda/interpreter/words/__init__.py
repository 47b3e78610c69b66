"""What a seat sees and is told: observations, refusals explained, moves spelt as tokens, tensors."""
