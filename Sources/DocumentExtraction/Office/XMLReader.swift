// Glibc for free(3) of what the C shim allocates.
import Glibc
import CShimXML2
import ExtractionProtocol

/// A forward-only reader over one XML document in memory (libxml2's `xmlTextReader`, through
/// ``CShimXML2``).
///
/// Hostile XML cannot reach outside the bytes: no network, no external DTD, and entities are
/// not substituted, so references to an internal entity stay references and a "billion
/// laughs" expands nothing; libxml2's own amplification limits stay on. Errors are collected,
/// never printed.
final class XMLReader {
    enum NodeKind {
        case element, endElement, text, whitespace, other
    }

    private let reader: OpaquePointer
    private let bytes: [UInt8]
    private let name: String

    /// - Parameters:
    ///   - bytes: The whole document.
    ///   - name: The part's name, for error messages.
    ///   - recover: Read on past well-formedness errors (XHTML with HTML's entities) and to the
    ///     end of a truncated document, keeping every node read before the damage (see CShimXML2.h).
    init(_ bytes: [UInt8], name: String, recover: Bool = false) throws(ExtractionFailure) {
        self.bytes = bytes
        self.name = name
        // The reader keeps a pointer into `bytes`, which this object owns and never changes.
        let created = self.bytes.withUnsafeBufferPointer { cxml_reader_new($0.baseAddress, $0.count, recover ? 1 : 0) }
        guard let created else { throw ExtractionFailure(.decodeFailed, "\(name): cannot start the XML reader") }
        reader = created
    }

    deinit {
        cxml_reader_free(reader)
    }

    /// Moves to the next node; false at the end of the document.
    /// Throws when the document is not well-formed.
    func read() throws(ExtractionFailure) -> Bool {
        switch cxml_reader_read(reader) {
        case 1: return true
        case 0: return false
        default:
            let message = cxml_reader_error(reader).map { String(cString: $0) } ?? "malformed XML"
            throw ExtractionFailure(.decodeFailed, "\(name): \(message)")
        }
    }

    var kind: NodeKind {
        switch cxml_node_type(rawValue: UInt32(cxml_reader_node_type(reader))) {
        case CXML_ELEMENT: .element
        case CXML_END_ELEMENT: .endElement
        case CXML_TEXT, CXML_CDATA: .text
        case CXML_WHITESPACE, CXML_SIGNIFICANT_WHITESPACE: .whitespace
        default: .other
        }
    }

    /// The element's name without its prefix (`t` for `w:t`).
    var localName: String {
        cxml_reader_local_name(reader).map { String(cString: $0) } ?? ""
    }

    /// True when the current element's local name is `candidate` (no String is made).
    func isNamed(_ candidate: StaticString) -> Bool {
        guard let name = cxml_reader_local_name(reader) else { return false }
        return candidate.withUTF8Buffer { expected in
            var index = 0
            while index < expected.count {
                if UInt8(bitPattern: name[index]) != expected[index] { return false }
                index += 1
            }
            return name[index] == 0
        }
    }

    /// The current node's namespace URI, or nil.
    var namespaceURI: String? {
        cxml_reader_namespace_uri(reader).map { String(cString: $0) }
    }

    /// True when the current node is in the Dublin Core elements namespace (`dc:`).
    var isDublinCore: Bool { namespaceURI == "http://purl.org/dc/elements/1.1/" }

    /// The text of a text node.
    var value: String {
        cxml_reader_value(reader).map { String(cString: $0) } ?? ""
    }

    /// The character an entity reference names in HTML (`&nbsp;`, `&eacute;`: XHTML whose
    /// DOCTYPE may declare them keeps them as references); nil for other nodes.
    var htmlCharacter: String? {
        var utf8 = [CChar](repeating: 0, count: 8)
        let length = Int(cxml_reader_html_character(reader, &utf8))
        guard length > 0 else { return nil }
        return String(decoding: utf8.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True for `<x/>`, which has no end-element node.
    var isEmptyElement: Bool { cxml_reader_is_empty_element(reader) == 1 }

    /// Depth of the current node (the root element is 0).
    var depth: Int { Int(cxml_reader_depth(reader)) }

    /// The current element's attribute with this local name, in any namespace.
    func attribute(_ localName: String) -> String? {
        guard let value = cxml_reader_attribute(reader, localName) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }

    /// Reads on to the first element for which `matches` returns a value, and returns it; nil
    /// when the document ends first.
    func firstElement<T>(_ matches: (XMLReader) -> T?) throws(ExtractionFailure) -> T? {
        while try read() {
            if kind == .element, let value = matches(self) { return value }
        }
        return nil
    }

    /// The current element's text with its whitespace collapsed, or nil when blank.
    func elementValue() throws(ExtractionFailure) -> String? {
        let text = try elementText().collapsingWhitespace()
        return text.isEmpty ? nil : text
    }

    /// The text inside the current element (all its descendants' text), leaving the reader on
    /// its end; "" for an empty element.
    func elementText() throws(ExtractionFailure) -> String {
        guard kind == .element, !isEmptyElement else { return "" }
        let start = depth
        var text = ""
        while try read() {
            switch kind {
            case .text, .whitespace: text += value
            case .endElement where depth == start: return text
            default: break
            }
        }
        return text
    }
}
