"""Players and evaluation: encoders, neural networks, search, training, analysis."""
