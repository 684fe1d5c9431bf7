/// Reads a WebP file's canvas size from its RIFF header, to check thumbnails
/// without trusting the extractor's own account of them.
struct WebPHeader: Equatable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 30,
              bytes[0..<4].elementsEqual("RIFF".utf8),
              bytes[8..<12].elementsEqual("WEBP".utf8) else { return nil }
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        func little(_ offset: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        switch chunk {
        case "VP8 ":
            // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
            guard bytes[23] == 0x9d, bytes[24] == 0x01, bytes[25] == 0x2a else { return nil }
            width = little(26, 2) & 0x3fff
            height = little(28, 2) & 0x3fff
        case "VP8L":
            guard bytes[20] == 0x2f else { return nil }
            let bits = little(21, 4)
            width = (bits & 0x3fff) + 1
            height = ((bits >> 14) & 0x3fff) + 1
        case "VP8X":
            width = little(24, 3) + 1
            height = little(27, 3) + 1
        default:
            return nil
        }
    }
}
