import Glibc
import ToastRender
import ToastVocabulary

/// What the daemon asks the picture helper, one datagram (SOCK_SEQPACKET) with one descriptor
/// attached: a picture file the daemon opened (`file`), or a memfd holding `image-data` pixels
/// (`pixels`). Fixed-size, little-endian 64-bit fields.
package struct PictureRequest: Equatable, Sendable {
    package enum Kind: Int64, Sendable {
        /// A PNG, JPEG, GIF, ..., or SVG file: the helper reads and sniffs it.
        case file = 1
        /// Raw pixels: `rowstride`, `channels` (3 or 4), `width` × `height`.
        case pixels = 2
    }

    package var kind: Kind
    package var ticket: UInt64
    /// The largest side of the result.
    package var maxSide: Int
    /// The side an SVG is rendered at (at most `maxSide`).
    package var svgSide: Int
    /// The colour a symbolic SVG takes.
    package var tint: Color?
    package var width = 0, height = 0, rowstride = 0, channels = 0

    package init(kind: Kind, ticket: UInt64, maxSide: Int, svgSide: Int = 0, tint: Color? = nil) {
        self.kind = kind
        self.ticket = ticket
        self.maxSide = maxSide
        self.svgSide = svgSide
        self.tint = tint
    }

    static let fieldCount = 13

    package var encoded: [UInt8] {
        var fields: [UInt64] = [UInt64(kind.rawValue), ticket, UInt64(maxSide), UInt64(svgSide)]
        if let tint {
            fields += [1, tint.red.bitPattern, tint.green.bitPattern, tint.blue.bitPattern, tint.alpha.bitPattern]
        } else {
            fields += [0, 0, 0, 0, 0]
        }
        fields += [UInt64(width), UInt64(height), UInt64(rowstride), UInt64(channels)]
        return fields.flatMap(MessageFields.bytes)
    }

    package init?(decoding bytes: [UInt8]) {
        guard let fields = MessageFields.read(bytes, count: Self.fieldCount), let kind = Kind(rawValue: Int64(bitPattern: fields[0])),
              fields[2] <= 1 << 16, fields[3] <= 1 << 16, fields[9] <= 1 << 20, fields[10] <= 1 << 20,
              fields[11] <= 1 << 24, fields[12] <= 4 else { return nil }
        self.init(kind: kind, ticket: fields[1], maxSide: Int(fields[2]), svgSide: Int(fields[3]))
        if fields[4] == 1 {
            tint = Color(red: Double(bitPattern: fields[5]), green: Double(bitPattern: fields[6]),
                         blue: Double(bitPattern: fields[7]), alpha: Double(bitPattern: fields[8]))
        }
        (width, height, rowstride, channels) = (Int(fields[9]), Int(fields[10]), Int(fields[11]), Int(fields[12]))
    }
}

/// The helper's answer, one datagram: the ticket, the size of the pixels (straight RGBA, in a memfd
/// attached), or why there are none (UTF-8 after the fields, no descriptor).
package struct PictureReply: Equatable, Sendable {
    package var ticket: UInt64
    package var width: Int
    package var height: Int
    package var problem: String?

    package init(ticket: UInt64, width: Int = 0, height: Int = 0, problem: String? = nil) {
        self.ticket = ticket
        self.width = width
        self.height = height
        self.problem = problem
    }

    /// Room for a reply: the fields and a problem's text, cut to fit.
    package static let maxBytes = 3 * 8 + 512

    package var encoded: [UInt8] {
        [ticket, UInt64(width), UInt64(height)].flatMap(MessageFields.bytes) + Array((problem ?? "").utf8.prefix(512))
    }

    package init?(decoding bytes: [UInt8]) {
        guard let fields = MessageFields.read(bytes, count: 3), fields[1] <= UInt64(PictureLimits.maxPictureSide),
              fields[2] <= UInt64(PictureLimits.maxPictureSide) else { return nil }
        self.init(ticket: fields[0], width: Int(fields[1]), height: Int(fields[2]))
        if bytes.count > 24 { problem = String(decoding: bytes[24...], as: UTF8.self) }
    }
}

/// Little-endian 64-bit fields.
enum MessageFields {
    static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    static func read(_ bytes: [UInt8], count: Int) -> [UInt64]? {
        guard bytes.count >= count * 8 else { return nil }
        return (0..<count).map { field in
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[field * 8 + $1]) << (8 * $1) }
        }
    }
}
