import Glibc

/// Why a backlight or LED request failed, in words for the user.
package enum DeviceError: Error, Equatable, CustomStringConvertible {
    /// Nothing of the kind is there (no backlight, no caps-lock LED).
    case unavailable(String)
    /// The named device does not exist.
    case noDevice(String)
    /// Reading or writing it failed.
    case failed(String)

    package var description: String {
        switch self {
        case .unavailable(let why), .failed(let why): why
        case .noDevice(let path): "no such device: \(path)"
        }
    }
}

/// The kernel's device classes toastd reads and writes: `backlight/*` (screens), `leds/*` (keyboard
/// backlights, lock-key LEDs). `root` is `/sys/class`, or the tree `TOASTD_SYSFS_CLASS` names (tests
/// lay one out in a temporary directory).
package struct SysfsDevices: Sendable {
    package static let environmentVariable = "TOASTD_SYSFS_CLASS"
    package let root: String

    package init(root: String?) {
        self.root = root.flatMap { $0.isEmpty ? nil : $0 } ?? "/sys/class"
    }

    /// A backlight (`class` "backlight") or an LED (`class` "leds") by name; nil name: the first
    /// backlight, in name order (as brightnessctl picks).
    package func brightnessDevice(class deviceClass: String, name: String?) throws(DeviceError) -> BrightnessDevice {
        if let name {
            guard !name.contains("/"), name != ".", name != ".." else { throw .noDevice(name) }
            let path = "\(root)/\(deviceClass)/\(name)"
            guard access(path + "/max_brightness", R_OK) == 0 else { throw .noDevice(path) }
            return BrightnessDevice(path: path, deviceClass: deviceClass, name: name)
        }
        guard let first = entries(of: deviceClass).first else {
            throw .unavailable("no backlight in \(root)/\(deviceClass)")
        }
        return BrightnessDevice(path: "\(root)/\(deviceClass)/\(first)", deviceClass: deviceClass, name: first)
    }

    /// Whether the lock key's LED (`*::capslock`, `*::numlock`) is lit: any keyboard's, as each
    /// keyboard has one and the compositor keeps them alike.
    package func lockKey(_ key: String) throws(DeviceError) -> Bool {
        let leds = entries(of: "leds").filter { $0.hasSuffix("::\(key)") }
        guard !leds.isEmpty else { throw .unavailable("no \(key) LED in \(root)/leds") }
        for led in leds {
            if let value = SysfsFile.readInteger("\(root)/leds/\(led)/brightness"), value > 0 { return true }
        }
        return false
    }

    /// The names in `root/class`, sorted; none if it cannot be read.
    private func entries(of deviceClass: String) -> [String] {
        guard let directory = opendir("\(root)/\(deviceClass)") else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }
}

/// One backlight or LED: `brightness` out of `max_brightness`.
package struct BrightnessDevice: Equatable, Sendable {
    package let path: String
    /// "backlight" or "leds": the subsystem logind's SetBrightness takes.
    package let deviceClass: String
    package let name: String

    /// The brightness now and its maximum.
    package func read() throws(DeviceError) -> (value: Int, max: Int) {
        guard let max = SysfsFile.readInteger(path + "/max_brightness"), max > 0 else {
            throw .failed("cannot read \(path)/max_brightness")
        }
        guard let value = SysfsFile.readInteger(path + "/brightness") else { throw .failed("cannot read \(path)/brightness") }
        return (value, max)
    }

    /// Whether this process may write `brightness` itself (root, or a udev rule's group); otherwise
    /// logind writes it for the session.
    package var isWritable: Bool { access(path + "/brightness", W_OK) == 0 }

    /// Writes `value` directly.
    package func write(_ value: Int) throws(DeviceError) {
        guard SysfsFile.write("\(value)\n", to: path + "/brightness") else {
            throw .failed("cannot write \(path)/brightness: \(String(cString: strerror(errno)))")
        }
    }
}

/// Brightness arithmetic in percent of the device's maximum.
package enum BrightnessLevels {
    /// `value` of `max` in percent, rounded.
    package static func percent(_ value: Int, of max: Int) -> Int {
        max > 0 ? (value * 100 + max / 2) / max : 0
    }

    /// The raw value after `change` (a step in points or a percentage), within 0...max. A step always
    /// moves a device whose steps are coarser than a point (a keyboard backlight of 3 levels).
    package static func value(after change: LevelChange, from value: Int, max: Int) -> Int {
        let target: Int
        switch change {
        case .by(let points):
            let moved = (percent(value, of: max) + points) * max
            target = points >= 0 ? (moved + 99) / 100 : moved / 100
            if target == value && points != 0 { return Swift.min(Swift.max(value + points.signum(), 0), max) }
        case .set(let percent): target = (percent * max + 50) / 100
        case .show, .mute, .unmute, .toggleMute: target = value
        }
        return Swift.min(Swift.max(target, 0), max)
    }
}

/// Whole small files of sysfs, read and written with one system call each.
enum SysfsFile {
    static func readInteger(_ path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer[..<count], as: UTF8.self).trimmingWhitespace)
    }

    static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }
}

private extension String {
    var trimmingWhitespace: Substring {
        let isBlank = { (c: Character) in c == " " || c == "\n" || c == "\t" }
        let start = firstIndex { !isBlank($0) } ?? endIndex
        let end = lastIndex { !isBlank($0) }.map { index(after: $0) } ?? start
        return self[start..<end]
    }
}
