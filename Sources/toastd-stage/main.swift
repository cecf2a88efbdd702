import Glibc
import Wayland

// toastd-stage: the test stage's own Wayland clients (a probe window, virtual pointer and
// keyboard). See `usage()`.

func usage() -> Never {
    complain("""
        usage:
          toastd-stage probe [--fullscreen]     a window that prints the input events it gets
          toastd-stage click X Y [--output NAME] [--button left|right|middle]
                                                a click (left unless told) at output coordinates
          toastd-stage move X Y [--output NAME]  move the pointer only
          toastd-stage key NAME|CODE...         press and release keys (xkb keysym names or evdev codes)
          toastd-stage hold NAME|CODE           press a key, print `pressed`, release it on SIGTERM
          toastd-stage kwin-key NAME|CODE...    press and release keys through KWin's fake input
          toastd-stage seat                     keep a virtual pointer and keyboard plugged in until stdin ends
        """)
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "probe":
        let fullscreen = arguments.dropFirst().contains("--fullscreen")
        let probe = Probe(globals: try Globals(display: try WaylandDisplay()), fullscreen: fullscreen)
        try probe.run()
    case "click": try click(Array(arguments.dropFirst()), press: true)
    case "move": try click(Array(arguments.dropFirst()), press: false)
    case "key": try key(Array(arguments.dropFirst()))
    case "hold": try hold(Array(arguments.dropFirst()))
    case "kwin-key": try kwinKey(Array(arguments.dropFirst()))
    case "seat": try holdSeat()
    default: usage()
    }
} catch {
    fail("\(error)")
}
