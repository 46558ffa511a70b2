"""Pure game rules. Nothing in this package may import Django (tests/engine/test_purity.py checks)."""
