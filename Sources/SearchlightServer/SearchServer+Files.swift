import Foundation
import SystemCalls
import Hummingbird
import NIOCore
import NIOPosix
import Searchlight
import SearchlightFiles
import SearchlightJSON

extension SearchServer {
    /// Bytes read from disk per chunk of a file's body.
    ///
    /// One chunk is read on NIO's thread pool and written before the next is read, so a
    /// download holds one chunk in memory at a time, whatever the file's size.
    static let fileChunkLength = 128 * 1024

    /// Content types shown in the browser; anything else is downloaded. Never HTML or SVG
    /// inline: a document served from this origin could otherwise script the API.
    ///
    /// - Parameter contentType: The item's content type, without parameters.
    /// - Returns: Whether the file is served `inline` rather than as an `attachment`.
    static func isShownInline(_ contentType: String) -> Bool {
        contentType == "application/pdf" || contentType == "text/plain"
            || (contentType.hasPrefix("image/") && contentType != "image/svg+xml")
            || contentType.hasPrefix("audio/") || contentType.hasPrefix("video/")
    }

    /// The indexed item a request names, and its file opened safely below its root.
    ///
    /// Only a file the index holds is served, and only through its domain's root: the file is
    /// opened below the root's descriptor without following a link (``RootedFile``), so an
    /// identifier cannot reach outside the root.
    ///
    /// The item and the domains' origins are read in one ``read(_:)``; the file is opened
    /// after, so a file replaced on disk since it was indexed is served as it is now.
    ///
    /// - Throws: ``APIError`` 404 when there is no such item, its domain has no root here
    ///   (another machine's folder on a shared index), or the file cannot be opened.
    /// - Parameters:
    ///   - location: The domain and identifier the request named.
    ///   - index: The signed-in person's reads of the index, else the server's.
    /// - Returns: The item, and its file opened for reading; the caller closes nothing, the
    ///   file closes its descriptor when released.
    func openIndexedFile(_ location: ItemLocation, index: any FileIndexReader) async throws -> (IndexedItem, RootedFile) {
        let (found, origins) = try await read { [index] in
            (try await index.item(location.identifier, domain: location.domain), try await index.domainOrigins())
        }
        guard let indexed = found else { throw Self.noItem(location) }
        guard let root = origins.roots[location.domain] else {
            throw APIError(.notFound, "the domain \(location.domain.debugDescription) has no folder on disk")
        }
        // A shared index holds other machines' folders: the same path here is another file.
        if let host = origins.remoteHost(of: location.domain) {
            throw APIError(.notFound, "the domain \(location.domain.debugDescription) is a folder of \(host), "
                           + "not of this machine: its files are served by a server there")
        }
        do {
            return (indexed, try RootedFile(root: root, relativePath: location.identifier))
        } catch {
            throw APIError(.notFound, "cannot serve \(location.identifier.lossyString.debugDescription): \(error)")
        }
    }

    /// `GET /api/files/DOMAIN/ID`: the file of an indexed item, whole or a single byte range.
    ///
    /// The content type is the item's; PDF, plain text, images (not SVG), audio and video are
    /// shown inline, anything else (or any file with `?download`) is a download. The `ETag`
    /// is made of the size and modification time (`If-None-Match` answers 304, `If-Range`
    /// honoured), and every type but PDF gets a sandboxing content security policy. The body
    /// is read in chunks of ``fileChunkLength`` on NIO's thread pool, never on the event loop;
    /// a file that shrinks meanwhile ends the body short.
    ///
    /// A `HEAD` request gets the same headers and no body. The `Content-Disposition` names the
    /// file twice: an ASCII fallback (``asciiFallback(_:)``) and the exact bytes,
    /// percent-encoded (`filename*=UTF-8''…`).
    ///
    /// The conditions are compared as strings: `If-None-Match` answers 304 only when it is the
    /// tag itself (a list of tags, or a weak one, gets the file), and a `Range` is honoured when
    /// there is no `If-Range` or it is the tag (a date there gets the whole file). One range is
    /// served; several, or one not understood, get the whole file (``ByteRange``). An empty file
    /// is answered 200 with no body.
    ///
    /// - Throws: ``APIError`` 400 for a malformed path, 404 as ``openIndexedFile(_:index:)``
    ///   says; 416 is answered for a range outside the file.
    /// - Parameters:
    ///   - request: The request; `Range`, `If-Range`, `If-None-Match` and `?download` count.
    ///   - index: The signed-in person's reads of the index, else the server's.
    /// - Returns: 200 with the whole file, 206 with a range, 304, or 416.
    func file(_ request: Request, index: any FileIndexReader) async throws -> Response {
        let location = try Self.location(of: request, after: "/api/files/")
        let (indexed, file) = try await openIndexedFile(location, index: index)
        let contentType = indexed.item.attributeSet.contentType ?? "application/octet-stream"
        let name = Array(location.identifier.lastComponent)
        let download = QueryParameters(request.uri.query)["download"] != nil
        let disposition = (download || !Self.isShownInline(contentType) ? "attachment" : "inline")
            + "; filename=\"" + Self.asciiFallback(name) + "\"; filename*=UTF-8''"
            + ItemLocation.percentEncode(name, keepingSlashes: false)
        // Size, seconds and nanoseconds each in hexadecimal, apart: run together, a time of
        // 0x1a s and 0x2b3 ns read as one of 0x1a2 s and 0xb3 ns, and a changed file kept its tag.
        let tag = "\"\(String(file.size, radix: 16))-\(String(file.modificationTime.seconds, radix: 16))"
            + ".\(String(file.modificationTime.nanoseconds, radix: 16))\""
        var headers: HTTPFields = [
            .contentType: contentType == "text/plain" ? "text/plain; charset=utf-8" : contentType,
            .contentDisposition: disposition,
            .acceptRanges: "bytes",
            .eTag: tag,
            .cacheControl: "no-cache",
            .lastModified: Date(timeIntervalSince1970: TimeInterval(file.modificationTime.seconds)).httpDate,
        ]
        if contentType != "application/pdf" {
            // A document that runs scripts runs them in an origin of its own.
            headers[.contentSecurityPolicy] = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox"
        }
        if request.headers[.ifNoneMatch] == tag {
            return Response(status: .notModified, headers: headers)
        }
        var range: ClosedRange<Int64>? = file.size > 0 ? 0...(file.size - 1) : nil
        var status = HTTPResponse.Status.ok
        if let header = request.headers[.range], request.headers[.ifRange].map({ $0 == tag }) ?? true {
            switch ByteRange.parse(header, size: file.size) {
            case .whole:
                break
            case .part(let part):
                range = part
                status = .partialContent
                headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(file.size)"
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(file.size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
        }
        let length = range.map { Int($0.upperBound - $0.lowerBound + 1) } ?? 0
        headers[.contentLength] = String(length)
        if request.method == .head || range == nil {
            return Response(status: status, headers: headers, body: .init())
        }
        let bounds = range!
        return Response(status: status, headers: headers, body: ResponseBody(contentLength: length) { writer in
            var offset = bounds.lowerBound
            while offset <= bounds.upperBound {
                let count = Int(min(Int64(Self.fileChunkLength), bounds.upperBound - offset + 1))
                let start = offset
                let chunk = try await NIOThreadPool.singleton.runIfActive { try file.read(at: start, count: count) }
                if chunk.isEmpty { break }   // the file shrank: the connection ends short
                try await writer.write(ByteBuffer(bytes: chunk))
                offset += Int64(chunk.count)
            }
            try await writer.finish(nil)
        })
    }

    /// A file name for `filename=`: ASCII, quotes and controls replaced.
    ///
    /// Every byte outside printable ASCII, and every `"` and `\`, becomes `_`, byte by byte:
    /// `résumé.pdf` gives `r__sum__.pdf` (each é is two bytes).
    ///
    /// - Parameter name: The file name's bytes: the last component of the item's identifier,
    ///   not necessarily UTF-8.
    /// - Returns: As many characters as `name` has bytes, safe between the quotes of a header.
    static func asciiFallback(_ name: [UInt8]) -> String {
        String(decoding: name.map { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") ? $0 : UInt8(ascii: "_") },
               as: UTF8.self)
    }

    /// `POST /api/open/DOMAIN/ID`: opens the item's file with the desktop's default application
    /// (`xdg-open`), only for a request from this machine carrying the token.
    ///
    /// The token comes in `X-Searchlight-Token` or as a bearer token, and is compared in
    /// constant time with ``openToken``. `xdg-open` gets the file's path as its open
    /// descriptor resolves it, and is waited for on a thread of its own; the answer (202) does
    /// not wait for the application. The opening is recorded in the history, which ranks the
    /// item higher in later searches.
    ///
    /// The file is opened (``openIndexedFile(_:index:)``) before `xdg-open` is given a path: its
    /// descriptor's link in `/proc/self/fd` names the file that was reached below the root
    /// without links. The history is written as soon as `xdg-open` starts; whether it found an
    /// application is not known to the server.
    ///
    /// - Throws: ``APIError`` 403 off loopback or without the token, 404 as
    ///   ``openIndexedFile(_:index:)`` says, 409 when there is no desktop session.
    /// - Parameters:
    ///   - request: The request, with its token.
    ///   - context: Where the request came from, and the signed-in person.
    /// - Returns: 202 with `{"opened": PATH}`.
    func open(_ request: Request, context: ServerContext) async throws -> Response {
        guard context.isFromLoopback else {
            throw APIError(.forbidden, "opening files on the desktop is allowed only from this machine")
        }
        let given = request.headers[.searchlightToken]
            ?? request.headers[.authorization].flatMap { $0.lowercased().hasPrefix("bearer ") ? String($0.dropFirst(7)) : nil }
        guard AccessMiddleware.constantTimeEqual(given, openToken) else {
            throw APIError(.forbidden, "opening files needs the page's token (X-Searchlight-Token)")
        }
        let location = try Self.location(of: request, after: "/api/open/")
        let (item, file) = try await openIndexedFile(location, index: index(for: context))
        let environment = ProcessInfo.processInfo.environment
        guard !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty else {
            throw APIError(.conflict, "there is no desktop session here (neither DISPLAY nor WAYLAND_DISPLAY is set): use the download link")
        }
        // The descriptor proves the file is a regular file reached without links; xdg-open gets
        // its path, which it would resolve the same way a moment later.
        let path = "/proc/self/fd/\(file.descriptor)"
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""
        guard target.hasPrefix("/") else { throw APIError(.notFound, "cannot find the file's path") }
        // xdg-open is waited for on a thread of its own (it may wait for the application):
        // never on the few threads of the concurrency pool.
        let arguments = [Array("xdg-open".utf8), Array(target.utf8)]
        Thread { _ = SystemCall.spawnAndWait(arguments, quiet: true) }.start()
        // Opened from the page: it ranks higher in later searches (OpenHistory).
        history.record(domain: item.item.domainIdentifier, identifier: item.item.uniqueIdentifier)
        var object = JSONLine()
        object.add("opened", target)
        return .json(object.finished, status: .accepted)
    }
}

extension Date {
    /// `Tue, 24 Nov 2026 07:00:00 GMT`.
    ///
    /// The IMF-fixdate of HTTP (RFC 9110), in GMT whatever the process's time zone; for
    /// `Last-Modified`. Fractions of a second are dropped.
    var httpDate: String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: self)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return String(format: "%@, %02d %@ %04d %02d:%02d:%02d GMT", days[c.weekday! - 1], c.day!, months[c.month! - 1],
                      c.year!, c.hour!, c.minute!, c.second!)
    }
}
