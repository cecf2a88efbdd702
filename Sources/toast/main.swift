print("toast: not yet")
