import CLinux
import CXkbCommon
import Glibc

/// An xkb keymap compiled by libxkbcommon (rules "evdev", layout "us"), as the text a
/// zwp_virtual_keyboard_v1 wants in a file descriptor.
final class Keymap {
    private let context: OpaquePointer
    private let keymap: OpaquePointer

    init?() {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        var names = xkb_rule_names()
        let made: OpaquePointer? = "evdev".withCString { rules in
            "us".withCString { layout in
                names.rules = rules
                names.layout = layout
                return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
            }
        }
        guard let made else {
            xkb_context_unref(context)
            return nil
        }
        self.context = context
        self.keymap = made
    }

    deinit {
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// The keymap text in a sealed-size memfd, NUL-terminated as the protocol expects;
    /// returns the fd and the size to announce. The caller closes the fd.
    func memfd() -> (fd: Int32, size: UInt32)? {
        guard let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return nil }
        defer { free(text) }
        let size = strlen(text) + 1
        let fd = memfd_create("toastd-stage-keymap", CLINUX_MFD_CLOEXEC)
        guard fd >= 0 else { return nil }
        var written = 0
        while written < size {
            let n = write(fd, text + written, size - written)
            guard n > 0 else {
                close(fd)
                return nil
            }
            written += n
        }
        return (fd, UInt32(size))
    }

    /// The evdev code of the first key whose unshifted symbol is `name` (a keysym name such as
    /// "a", "Return", "Escape"), or nil.
    func evdevCode(forKeysymNamed name: String) -> UInt32? {
        var sym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        if sym == 0 { sym = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE) }
        guard sym != 0 else { return nil }
        let lowest = xkb_keymap_min_keycode(keymap), highest = xkb_keymap_max_keycode(keymap)
        guard lowest <= highest else { return nil }
        for keycode in lowest...highest {
            var syms: UnsafePointer<xkb_keysym_t>?
            let count = xkb_keymap_key_get_syms_by_level(keymap, keycode, 0, 0, &syms)
            guard count > 0, let syms else { continue }
            for i in 0..<Int(count) where syms[i] == sym {
                return keycode - 8  // xkb keycodes are evdev codes + 8
            }
        }
        return nil
    }
}
