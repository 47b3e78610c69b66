"""The state of play and its flow: action ids, watched conditions, the frame the generated code fills."""
