import Glibc
import ToastDaemon

exit(Daemon.main(arguments: Array(CommandLine.arguments.dropFirst())))
