// The ToastClient library in a Swift program: a toast, a value bar, and a spinner held while the
// program works (here: until a line arrives on standard input, so a test or a human decides when).
import Glibc
import ToastClient

/// A line on standard output at once (a pipe would otherwise hold it back).
func say(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

do {
    // `ToastClientExample alert`: one question, answered from the keyboard.
    if CommandLine.arguments.dropFirst().first == "alert" {
        let answer = try Alert.ask("Deploy?", body: "from the Swift client", actions: [("yes", "Yes"), ("no", "No")])
        say("answer \(answer ?? "none")")
        exit(0)
    }
    let id = try Toast.show("Saved", body: "notes.txt")
    say("toast \(id)")
    try Toast.hud(.volume, 40)
    let spinner = try Loading.start("sync", label: "Syncing")
    say("syncing")
    _ = readLine()
    spinner.stop()
    say("done")
} catch {
    say("toastd: \(error)")
    exit(1)
}
