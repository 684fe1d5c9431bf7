/// Reads the elements of a DER encoding (ITU-T X.690) one after another, to recognise the
/// shape of a structure — a private key, a PKCS#12 store — without decoding its values.
///
/// Every length is checked against the bytes that remain: a length that runs past its
/// enclosing element or the bytes read ends the reading (`nil`), never a crash. Only definite
/// lengths of up to four bytes are accepted (BER's indefinite form is not DER), and only
/// single-byte tags (the universal and context-specific tags that keys use).
///
/// ```swift
/// var key = DERReader(bytes)
/// guard let sequence = key.read(tag: DERReader.sequence), key.isAtEnd else { return false }
/// var fields = key.reader(inside: sequence)
/// let version = fields.readSmallInteger()
/// ```
struct DERReader {
    /// One element: its tag and where its content lies in the bytes.
    struct Element {
        var tag: UInt8
        var content: Range<Int>
    }

    static let integer: UInt8 = 0x02
    static let bitString: UInt8 = 0x03
    static let octetString: UInt8 = 0x04
    static let objectIdentifier: UInt8 = 0x06
    static let sequence: UInt8 = 0x30

    private let bytes: ArraySlice<UInt8>
    private var position: Int
    private let end: Int

    /// Reads `bytes` from their start to their end.
    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
        end = bytes.endIndex
    }

    private init(_ bytes: ArraySlice<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    /// Where the next element starts, as an index of the bytes.
    var offset: Int { position }

    /// Whether every element has been read.
    var isAtEnd: Bool { position == end }

    /// The tag of the next element, without reading it.
    var nextTag: UInt8? { position < end ? bytes[position] : nil }

    /// A reader of the content of `element` (a constructed element: a SEQUENCE, a `[0]`).
    func reader(inside element: Element) -> DERReader {
        DERReader(bytes, range: element.content)
    }

    /// The content of `element`.
    func content(of element: Element) -> ArraySlice<UInt8> { bytes[element.content] }

    /// Reads the next element's header: its tag and its content's length, which may run past
    /// the bytes read (for the outermost element of a file read in part). `nil` when the
    /// header itself is malformed or cut. With `allowsIndefinite`, BER's indefinite length
    /// (which old PKCS#12 writers use) reads as `nil` length, the content running to its
    /// end-of-contents octets.
    mutating func readHeader(allowsIndefinite: Bool = false) -> (tag: UInt8, length: Int?)? {
        guard end - position >= 2 else { return nil }
        let tag = bytes[position]
        // Multi-byte tags (low five bits all set) are not used by the structures we look for.
        guard tag & 0x1F != 0x1F else { return nil }
        let first = bytes[position + 1]
        if first < 0x80 || first == 0x80 && allowsIndefinite && tag & 0x20 != 0 {
            position += 2
            return (tag, first == 0x80 ? nil : Int(first))
        }
        // 0x80 is BER's indefinite length, which DER forbids; more than four length bytes
        // would describe more than four gigabytes.
        let count = Int(first & 0x7F)
        guard count >= 1, count <= 4, end - position >= 2 + count else { return nil }
        var length = 0
        for byte in bytes[(position + 2)..<(position + 2 + count)] { length = length << 8 | Int(byte) }
        // A length not in DER's shortest form (a leading zero byte, the long form below 128)
        // is accepted: some tools write one, and a key must not slip through for it.
        position += 2 + count
        return (tag, length)
    }

    /// Reads the next element whole; `nil` when it is malformed or runs past the end.
    mutating func read() -> Element? {
        let start = position
        guard let (tag, length) = readHeader(), let length, length <= end - position else {
            position = start
            return nil
        }
        let content = position..<(position + length)
        position += length
        return Element(tag: tag, content: content)
    }

    /// Reads the next element if it has `tag`.
    mutating func read(tag: UInt8) -> Element? {
        guard nextTag == tag else { return nil }
        return read()
    }

    /// Reads the next element if it is an INTEGER of one to eight bytes, and returns its value
    /// (a version field).
    mutating func readSmallInteger() -> Int? {
        guard let element = read(tag: Self.integer), (1...8).contains(element.content.count) else { return nil }
        return content(of: element).reduce(0) { $0 << 8 | Int($1) }
    }

    /// Reads the elements that follow as long as they are INTEGERs; returns how many there were.
    mutating func skipIntegers() -> Int {
        var count = 0
        while nextTag == Self.integer, let element = read(), !element.content.isEmpty { count += 1 }
        return count
    }
}
