import ExtractionProtocol

/// The few fields read from an XMP packet (a PDF's `/Metadata` stream).
enum XMPMetadata {
    /// The first `dc:title` entry (`rdf:Alt/rdf:li`), or nil.
    static func title(in bytes: [UInt8]) throws(ExtractionFailure) -> String? {
        let reader = try XMLReader(bytes, name: "XMP metadata")
        var inTitle = false
        while try reader.read() {
            switch reader.kind {
            case .element where reader.isNamed("title") && reader.isDublinCore:
                inTitle = true
            case .element where inTitle && reader.isNamed("li"):
                if let title = try reader.elementValue() { return title }
            case .endElement where reader.isNamed("title"):
                inTitle = false
            default:
                break
            }
        }
        return nil
    }
}
