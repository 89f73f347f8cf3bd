print("logbook-bench: not written yet")
