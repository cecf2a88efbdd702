print("toastd-stage: not yet")
