import Synchronization

/// MIME types learned from libmagic's full passes, by the shape of a description (its digits
/// left out), shared by the inspector threads of a pool: what one thread paid a pass for, the
/// others need not pay again. ``ContentIdentifier`` says why a shape is checked again.
final class LearnedContentTypes: Sendable {
    private struct Learned {
        /// The type the shape's files had, `nil` once two of them had different types.
        var type: String?
        /// How many of its files asked.
        var files: Int
    }

    private let shapes = Mutex<[String: Learned]>([:])

    /// Bounds the table; a full table starts over.
    static let limit = 4096

    init() {}

    /// How many shapes it has learned (and paid a pass for) so far.
    var count: Int { shapes.withLock { $0.count } }

    /// A description with each run of ASCII digits made one `#`: sizes, dimensions, dates and
    /// versions that rarely repeat do not make a new shape.
    static func shape(of description: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(description.utf8.count)
        var inDigits = false
        for byte in description.utf8 {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if !inDigits { bytes.append(UInt8(ascii: "#")) }
                inDigits = true
            } else {
                bytes.append(byte)
                inDigits = false
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The type learned for `shape`, or `nil` when the caller must run a MIME pass (and then
    /// ``learn(_:forShape:)`` its answer): a new shape, one seen with two types, or a shape's
    /// 2nd, 4th, 8th… file, whose real type checks the learned one.
    func type(forShape shape: String) -> String? {
        shapes.withLock { shapes in
            guard var learned = shapes[shape] else { return nil }
            learned.files += 1
            shapes[shape] = learned
            let isCheck = learned.files & (learned.files - 1) == 0
            return isCheck ? nil : learned.type
        }
    }

    /// Records what a MIME pass answered for a file of `shape`.
    func learn(_ type: String, forShape shape: String) {
        shapes.withLock { shapes in
            if var learned = shapes[shape] {
                if let known = learned.type, !known.utf8.elementsEqual(type.utf8) { learned.type = nil }
                shapes[shape] = learned
                return
            }
            if shapes.count >= Self.limit { shapes.removeAll(keepingCapacity: true) }
            shapes[shape] = Learned(type: type, files: 1)
        }
    }
}
