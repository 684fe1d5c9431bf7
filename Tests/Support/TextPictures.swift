import Foundation
import Testing

/// Pictures of text written by the tests themselves, for OCR: `vips text` renders a phrase
/// (white on black), which is inverted to ink on paper, padded, optionally turned and
/// speckled, then encoded; an image-only PDF wraps such a picture as a JPEG with no text layer
/// (`Examples/image-pdf.py`).
public enum TextPictures {
    /// A page of text.
    public struct Page: Sendable {
        public var text: String
        public var font = "DejaVu Sans 12"
        /// The resolution the text is rendered at (its size in pixels).
        public var dpi = 200
        /// A quarter turn, a half turn…: 0, 90, 180 or 270 degrees clockwise.
        public var rotation = 0
        /// Standard deviation of Gaussian speckle added, 0 for none.
        public var noise = 0.0

        public init(_ text: String, font: String = "DejaVu Sans 12", dpi: Int = 200, rotation: Int = 0, noise: Double = 0) {
            self.text = text
            self.font = font
            self.dpi = dpi
            self.rotation = rotation
            self.noise = noise
        }
    }

    /// Writes `page` to `path`, in the format its extension names (`.png`, `.jpg[Q=80]`…).
    /// `scratch` is a folder for intermediate images.
    public static func write(_ page: Page, to path: String, scratch: String) {
        let name = UUID().uuidString
        func file(_ step: String) -> String { "\(scratch)/\(name)-\(step).v" }
        shell("vips", "text", file("text"), page.text, "--font", page.font, "--dpi", String(page.dpi),
              "--width", String(page.dpi * 6))
        shell("vips", "invert", file("text"), file("ink"))
        // A margin of paper around the text, as on a page.
        let header = try? ChildProcess.run(["vipsheader", "-f", "width", file("ink")])
        let heightResult = try? ChildProcess.run(["vipsheader", "-f", "height", file("ink")])
        let width = Int(String(decoding: header?.stdout ?? [], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let height = Int(String(decoding: heightResult?.stdout ?? [], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let margin = page.dpi / 2
        shell("vips", "embed", file("ink"), file("page"), String(margin), String(margin),
              String(width + 2 * margin), String(height + 2 * margin), "--extend", "white")
        var current = file("page")
        if page.noise > 0 {
            shell("vips", "gaussnoise", file("noise"), String(width + 2 * margin), String(height + 2 * margin),
                  "--sigma", String(page.noise), "--mean", "0", "--seed", "7")
            shell("vips", "add", current, file("noise"), file("noisy"))
            shell("vips", "cast", file("noisy"), file("speckled"), "uchar")
            current = file("speckled")
        }
        if page.rotation != 0 {
            shell("vips", "rot", current, file("turned"), "d\(page.rotation)")
            current = file("turned")
        }
        shell("vips", "copy", current, path)
    }

    /// Writes `page` as a one-page PDF without a text layer (a scan) to `path`.
    public static func writeScannedPDF(_ page: Page, to path: String, scratch: String) {
        let jpeg = "\(scratch)/\(UUID().uuidString).jpg"
        write(page, to: jpeg + "[Q=85]", scratch: scratch)
        shell("python3", imagePDFScript, jpeg, path, String(page.dpi))
    }

    /// A page of a PDF: a scan of a page of text, or a page with a text layer.
    public enum PDFPage: Sendable {
        case scan(Page)
        /// A scan with a line of real text on it (an app's "Scanned by …").
        case stampedScan(Page, stamp: String)
        case text(String)
    }

    /// Writes a PDF of `pages` to `path`, with `info` in its Info dictionary (`Subject`,
    /// `Title`…, as scanners write them). Scans are rendered at the first scan's resolution.
    public static func writePDF(_ pages: [PDFPage], info: [String: String] = [:], to path: String, scratch: String) {
        var arguments = ["python3", imagePDFScript, path]
        var dpi: Int?
        for (key, value) in info.sorted(by: { $0.key < $1.key }) { arguments += ["--info", "\(key)=\(value)"] }
        for pdfPage in pages {
            switch pdfPage {
            case .scan(let page), .stampedScan(let page, _):
                let jpeg = "\(scratch)/\(UUID().uuidString).jpg"
                write(page, to: jpeg + "[Q=85]", scratch: scratch)
                dpi = dpi ?? page.dpi
                arguments += ["--image", jpeg]
                if case .stampedScan(_, let stamp) = pdfPage { arguments += ["--stamp", stamp] }
            case .text(let text):
                arguments += ["--text", text]
            }
        }
        arguments.insert(String(dpi ?? 150), at: 3)
        shell(arguments)
    }

    /// `Examples/image-pdf.py` of this repository.
    static let imagePDFScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/image-pdf.py").path
}
