/// The slides' text in a PowerPoint 97–2003 `PowerPoint Document` stream: its records are
/// walked (containers entered, atoms skipped by their length) and the text atoms read —
/// `TextCharsAtom` (UTF-16LE) and `TextBytesAtom` (one byte per character) — except those
/// of master slides, which hold placeholder text ("Click to edit…"). Slides are counted on
/// to the end of the stream, past the text limit.
enum PowerPointText {
    private static let textChars: UInt16 = 0x0FA0
    private static let textBytes: UInt16 = 0x0FA8
    private static let mainMaster: UInt16 = 0x03F8
    private static let slideListWithText: UInt16 = 0x0FF0
    private static let slide: UInt16 = 0x03EE

    /// Reads the text into `text` and returns the number of slides (`Slide` containers).
    @discardableResult
    static func read(_ stream: [UInt8], into text: inout TextCollector) -> Int {
        var slides = 0
        // Ends of the containers we are inside, and whether each is a master's.
        var containers: [(end: Int, skipped: Bool)] = []
        var seen = Set<String>()
        var offset = 0
        while offset + 8 <= stream.count {
            while let last = containers.last, offset >= last.end { containers.removeLast() }
            let versionAndInstance = UInt16(stream[offset]) | UInt16(stream[offset + 1]) << 8
            let type = UInt16(stream[offset + 2]) | UInt16(stream[offset + 3]) << 8
            let length = Int(UInt32(stream[offset + 4]) | UInt32(stream[offset + 5]) << 8
                | UInt32(stream[offset + 6]) << 16 | UInt32(stream[offset + 7]) << 24)
            let body = offset + 8
            let end = body + length
            guard end <= stream.count, end > offset else { break }
            let skipped = containers.last?.skipped ?? false
            if versionAndInstance & 0x000F == 0x000F {
                // A container: its children follow its header.
                let instance = versionAndInstance >> 4
                let isMaster = type == mainMaster || (type == slideListWithText && instance == 1)
                if type == slide { slides += 1 }
                containers.append((end, skipped || isMaster))
                offset = body
                continue
            }
            if !skipped, !text.isFull, type == textChars || type == textBytes {
                let slice = stream[body..<end]
                let raw = type == textChars
                    ? String(decoding: stride(from: slice.startIndex, to: slice.endIndex - 1, by: 2).map {
                        UInt16(slice[$0]) | UInt16(slice[$0 + 1]) << 8 }, as: UTF16.self)
                    : String(decoding: slice.map { UInt16($0) }, as: UTF16.self)
                // Paragraphs end with CR, lines with VT. The same text is often stored twice
                // (the slide list and the slide's drawing).
                let paragraphs = raw.split(whereSeparator: { $0 == "\r" || $0 == "\u{0B}" })
                let joined = paragraphs.map { $0.trimmingWhitespace() }.joined(separator: "\n")
                if !joined.isEmpty, seen.insert(joined).inserted {
                    text.append(joined)
                    text.appendBreak()
                }
            }
            offset = end
        }
        return slides
    }
}
