print("WaylandScanner: not yet")
