import CoreFoundation

/// Unicode normalization forms through CoreFoundation's `CFStringNormalize`, called directly.
///
/// It is the code Foundation's `decomposedStringWithCompatibilityMapping`,
/// `precomposedStringWithCanonicalMapping` and `decomposedStringWithCanonicalMapping` run on
/// Linux, so a word folds as it always did (``WordFolding``, whose index and query sides must
/// agree; `UnicodeNormalizationTests` compares the two on random text of every script). Those
/// methods reach it through `NSString` and bridge the answer back, and the bridge looks up
/// conformances by scanning every conformance record of the executable at its first use: a
/// tenth of a millisecond or more of each search whose index holds a name outside ASCII.
enum UnicodeNormalization {
    /// `text` in normalization form `form` (`.KD`, `.C`, `.D`, `.KC`).
    static func normalized(_ text: String, _ form: CFStringNormalizationForm) -> String {
        guard let string = CFStringCreateMutable(nil, 0) else { return text }
        let units = Array(text.utf16)
        units.withUnsafeBufferPointer { CFStringAppendCharacters(string, $0.baseAddress, $0.count) }
        CFStringNormalize(string, form)
        // Read back as UTF-8: `String(decoding:as: UTF16.self)` transcodes through the standard
        // library's unspecialized generic path, whose associated types and conformances are
        // looked up at run time (what made the bridge slow).
        let range = CFRangeMake(0, CFStringGetLength(string))
        let utf8 = CFStringEncoding(CFStringBuiltInEncodings.UTF8.rawValue)
        var count: CFIndex = 0
        CFStringGetBytes(string, range, utf8, 0, false, nil, 0, &count)
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBufferPointer { _ = CFStringGetBytes(string, range, utf8, 0, false, $0.baseAddress, count, nil) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
