import Glibc
import ToastDaemon
import ToastPictures

// The same binary is the picture helper the daemon starts (`PictureHelper`): nothing of the daemon runs then.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == PictureHelper.argument {
    exit(PictureHelper.main(Array(CommandLine.arguments.dropFirst(2))))
}
exit(Daemon.main(arguments: Array(CommandLine.arguments.dropFirst())))
