#ifndef CXML_H
#define CXML_H

// HTML and XML to text for the extraction worker, through libxml2's streaming (SAX)
// parsers: no tree is built, so a document nested 100 000 deep costs no recursion, and
// the parse stops as soon as the text reaches its limit. libxml2's headers are included
// only in CXML.c. Only `searchlight-extractor` links it.
//
// Safety: no entity is expanded (an undeclared or user-declared entity is dropped, which
// defuses "billion laughs"), no DTD or external entity is loaded, no network is used
// (XML_PARSE_NONET), and parse errors are recovered from silently.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a parse found. Strings are malloc-allocated, NUL-terminated UTF-8, or NULL;
/// release with `cxml_document_clear`.
typedef struct {
    /// The visible text: whitespace collapsed, blocks on lines of their own.
    char *text;
    size_t text_length;
    /// Whether the parse stopped because the text passed its limit.
    int truncated;
    /// HTML `<title>`, or XML's first `dc:title`.
    char *title;
    /// HTML `<meta name="author">`, or XML's `dc:creator` elements one per line.
    char *authors;
    /// HTML `<meta name="keywords">`, or XML's `dc:subject` elements one per line.
    char *keywords;
    /// HTML `<meta name="description">`, or XML's first `dc:description`.
    char *description;
    /// Nonzero when libxml2 could not start parsing at all.
    int failed;
} cxml_document;

/// Parses HTML given as UTF-8 (any `<meta charset>` inside is ignored: the caller decoded
/// the bytes already). Stops once the text is longer than `text_limit` bytes. Scripts,
/// styles and templates are skipped.
void cxml_extract_html(const char *utf8, size_t length, size_t text_limit, cxml_document *document);

/// Parses XML in the encoding it declares (UTF-8 by default; BOMs are honoured), or as UTF-8
/// whatever it declares when `ignore_declared_encoding` is nonzero (the caller decoded it).
/// Text nodes and CDATA become the text; Dublin Core `title`, `creator`, `subject` and
/// `description` elements fill the metadata. Stops once the text is longer than `text_limit`.
/// A damaged file keeps the text read before the damage; one cut short keeps its text up to
/// the cut, also inside an unclosed CDATA section (a feed's last `<description>`).
void cxml_extract_xml(const char *bytes, size_t length, size_t text_limit, int ignore_declared_encoding,
                      cxml_document *document);

/// Frees what `document` owns and zeroes it.
void cxml_document_clear(cxml_document *document);

#ifdef __cplusplus
}
#endif

#endif
