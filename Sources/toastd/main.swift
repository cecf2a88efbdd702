import ToastDaemon
print("toastd: not yet")
