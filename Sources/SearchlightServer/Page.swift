import Foundation
import Hummingbird
import NIOCore

/// The web page: one HTML document, its style sheet and its script, compiled into the binary
/// (SwiftPM's `embedInCode` resources), so that an installed `searchlight` needs no files
/// beside it. The token of `POST /api/open` is written into the HTML once per run.
struct Page: Sendable {
    /// `index.html`, the token written in.
    let html: ByteBuffer
    /// `style.css`.
    let style = ByteBuffer(bytes: PackageResources.style_css)
    /// `app.js`, the page's one script, which talks to the JSON API only.
    let script = ByteBuffer(bytes: PackageResources.app_js)
    /// The magnifying glass of `/favicon.svg`.
    let icon = ByteBuffer(string: Page.iconSVG)

    /// The page's placeholder for the token.
    static let tokenPlaceholder = "__SEARCHLIGHT_OPEN_TOKEN__"

    /// The page, with `openToken` in place of ``tokenPlaceholder``.
    init(openToken: String) {
        let text = String(decoding: PackageResources.index_html, as: UTF8.self)
        html = ByteBuffer(string: text.replacingOccurrences(of: Self.tokenPlaceholder, with: openToken))
    }

    /// Only this origin's script and style; pictures from the API or inline; no frames.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// A blue magnifying glass, drawn as SVG.
    static let iconSVG = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="13" cy="13" r="8" fill="none" \
        stroke="#2563eb" stroke-width="4"/><path d="M19 19l8 8" stroke="#2563eb" stroke-width="4" stroke-linecap="round"/></svg>
        """
}

extension SearchServer {
    /// The page's routes: `/` (never cached, under ``Page/contentSecurityPolicy``), its style
    /// and script (revalidated each time), and the icon (cached for a day).
    func addPageRoutes(to router: Router<ServerContext>) {
        router.get("/") { _, _ in
            Response(status: .ok,
                     headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                               .contentSecurityPolicy: Page.contentSecurityPolicy],
                     body: .init(byteBuffer: self.page.html))
        }
        router.get("/style.css") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "no-cache"],
                     body: .init(byteBuffer: self.page.style))
        }
        router.get("/app.js") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                     body: .init(byteBuffer: self.page.script))
        }
        router.get("/favicon.svg") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "max-age=86400"],
                     body: .init(byteBuffer: self.page.icon))
        }
    }
}
