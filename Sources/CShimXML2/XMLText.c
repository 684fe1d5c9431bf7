#include "CShimXML2.h"
#include "Guards.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

// MARK: Growing buffers

typedef struct {
    char *bytes;
    size_t length;
    size_t capacity;
} buffer;

static int buffer_append(buffer *b, const char *bytes, size_t length) {
    if (b->length + length + 1 > b->capacity) {
        size_t capacity = b->capacity < 256 ? 256 : b->capacity;
        while (b->length + length + 1 > capacity) capacity *= 2;
        char *grown = realloc(b->bytes, capacity);
        if (grown == NULL) return -1;
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->length, bytes, length);
    b->length += length;
    b->bytes[b->length] = '\0';
    return 0;
}

static char *buffer_take(buffer *b) {
    char *bytes = b->bytes;
    memset(b, 0, sizeof(*b));
    return bytes;
}

/// Appends `text` to `b` with runs of whitespace collapsed to one space (across calls: a
/// parser may hand one text over in several pieces); stops at `limit` bytes. Leading
/// whitespace is dropped here, trailing whitespace by `take_trimmed`.
static void append_collapsed(buffer *b, const char *text, size_t length, size_t limit) {
    for (size_t i = 0; i < length && b->length < limit; i++) {
        char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
            if (b->length > 0 && b->bytes[b->length - 1] != ' ' && b->bytes[b->length - 1] != '\n') {
                buffer_append(b, " ", 1);
            }
            continue;
        }
        buffer_append(b, &c, 1);
    }
}

static char *take_trimmed(buffer *b) {
    while (b->length > 0 && (b->bytes[b->length - 1] == ' ' || b->bytes[b->length - 1] == '\n')) {
        b->bytes[--b->length] = '\0';
    }
    if (b->length == 0) {
        free(b->bytes);
        memset(b, 0, sizeof(*b));
        return NULL;
    }
    return buffer_take(b);
}

// MARK: Shared parse state

/// Metadata strings are short; longer ones are cut.
enum { metadata_limit = 4096 };

typedef struct {
    xmlParserCtxtPtr context;
    buffer text;
    size_t limit;
    int truncated;
    /// A separator owed before the next visible character: 0 none, 1 space, 2 newline.
    int pending;
    /// How many skipped elements (script, style...) enclose the current position.
    int skipped;
    /// Whether the last event was an element's end: a second end in a row closes a container.
    int after_end;
    /// Depth of the element being captured into `capture` (0: none), and what it is for.
    int depth;
    int capture_depth;
    buffer *capture_target;
    int capture_is_list;
    buffer capture;
    buffer title;
    buffer authors;
    buffer keywords;
    buffer description;
    int in_title;
    int has_title;
} state;

static void owe(state *s, int separator) {
    if (separator > s->pending) s->pending = separator;
}

static void add_text(state *s, const xmlChar *characters, int length) {
    if (s->truncated) return;
    const char *text = (const char *)characters;
    for (int i = 0; i < length; i++) {
        char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
            owe(s, 1);
            continue;
        }
        if (s->text.length > 0 && s->pending > 0) {
            buffer_append(&s->text, s->pending == 2 ? "\n" : " ", 1);
        }
        s->pending = 0;
        // Copy the whole run of non-space bytes at once.
        int end = i;
        while (end < length && text[end] != ' ' && text[end] != '\t' && text[end] != '\n' && text[end] != '\r'
               && text[end] != '\f') {
            end++;
        }
        buffer_append(&s->text, text + i, (size_t)(end - i));
        i = end - 1;
        if (s->text.length > s->limit) {
            s->truncated = 1;
            xmlStopParser(s->context);
            return;
        }
    }
}

static void clear_state(state *s) {
    free(s->text.bytes);
    free(s->capture.bytes);
    free(s->title.bytes);
    free(s->authors.bytes);
    free(s->keywords.bytes);
    free(s->description.bytes);
}

static void finish(state *s, cxml_document *document) {
    document->text_length = s->text.length;
    document->text = s->text.bytes != NULL ? buffer_take(&s->text) : strdup("");
    document->truncated = s->truncated;
    document->title = take_trimmed(&s->title);
    document->authors = take_trimmed(&s->authors);
    document->keywords = take_trimmed(&s->keywords);
    document->description = take_trimmed(&s->description);
    clear_state(s);
}

/// Feeds `bytes` to a push parser in chunks, so that a stop requested by a callback
/// takes effect without parsing the rest. `at_end`, when given, sees the parser once every
/// byte is in, before the end of the document is signalled (when the parser gives up on
/// what it still holds); when it returns nonzero, it took what the parser held and the end
/// is not signalled.
static void feed(state *s, int (*parse)(xmlParserCtxtPtr, const char *, int, int), const char *bytes,
                 size_t length, int (*at_end)(state *)) {
    const size_t chunk = 64 << 10;
    size_t offset = 0;
    while (offset < length && !s->truncated && !s->context->disableSAX) {
        size_t size = length - offset < chunk ? length - offset : chunk;
        parse(s->context, bytes + offset, (int)size, 0);
        offset += size;
    }
    if (s->truncated || s->context->disableSAX) return;
    if (at_end != NULL && at_end(s)) return;
    parse(s->context, NULL, 0, 1);
}

/// The length of `bytes` without a UTF-8 sequence cut short at its end.
static size_t complete_utf8(const xmlChar *bytes, size_t length) {
    size_t start = length;
    // Back up over continuation bytes to the lead byte of the last sequence (4 at most).
    while (start > 0 && length - start < 4 && (bytes[start - 1] & 0xC0) == 0x80) start--;
    if (start == 0) return length;
    xmlChar lead = bytes[start - 1];
    size_t needed = lead < 0x80 ? 1 : (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : (lead & 0xF8) == 0xF0 ? 4 : 1;
    return length - (start - 1) < needed ? start - 1 : length;
}

// MARK: HTML

static const char *const skipped_html[] = {"script", "style", "noscript", "template", "svg", "math", "object", NULL};
static const char *const block_html[] = {
    "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table", "section",
    "article", "header", "footer", "nav", "aside", "blockquote", "pre", "dd", "dt", "dl", "hr", "form",
    "figure", "figcaption", "main", "address", "body", "caption", "fieldset", "legend", "details", "summary",
    NULL};
static const char *const cell_html[] = {"td", "th", "option", "img", "input", "label", NULL};

static int is_one_of(const xmlChar *name, const char *const *names) {
    for (size_t i = 0; names[i] != NULL; i++) {
        if (xmlStrcasecmp(name, (const xmlChar *)names[i]) == 0) return 1;
    }
    return 0;
}

static const xmlChar *attribute(const xmlChar **attributes, const char *name) {
    if (attributes == NULL) return NULL;
    for (size_t i = 0; attributes[i] != NULL; i += 2) {
        if (xmlStrcasecmp(attributes[i], (const xmlChar *)name) == 0) return attributes[i + 1];
    }
    return NULL;
}

static void html_meta(state *s, const xmlChar **attributes) {
    const xmlChar *name = attribute(attributes, "name");
    const xmlChar *content = attribute(attributes, "content");
    if (name == NULL || content == NULL) return;
    buffer *target = NULL;
    if (xmlStrcasecmp(name, (const xmlChar *)"author") == 0 || xmlStrcasecmp(name, (const xmlChar *)"dc.creator") == 0) {
        target = &s->authors;
    } else if (xmlStrcasecmp(name, (const xmlChar *)"keywords") == 0) {
        target = &s->keywords;
    } else if (xmlStrcasecmp(name, (const xmlChar *)"description") == 0) {
        target = &s->description;
    }
    if (target == NULL || target->length >= metadata_limit) return;
    if (target->length > 0) buffer_append(target, "\n", 1);
    append_collapsed(target, (const char *)content, strlen((const char *)content), target->length + metadata_limit);
}

static void html_start(void *context, const xmlChar *name, const xmlChar **attributes) {
    state *s = context;
    if (is_one_of(name, skipped_html)) {
        s->skipped++;
        return;
    }
    if (xmlStrcasecmp(name, (const xmlChar *)"title") == 0 && !s->has_title && s->skipped == 0) {
        s->in_title = 1;
        return;
    }
    if (xmlStrcasecmp(name, (const xmlChar *)"meta") == 0) {
        html_meta(s, attributes);
        return;
    }
    if (is_one_of(name, block_html)) owe(s, 2);
    else if (is_one_of(name, cell_html)) owe(s, 1);
    if (xmlStrcasecmp(name, (const xmlChar *)"img") == 0 && s->skipped == 0) {
        const xmlChar *alt = attribute(attributes, "alt");
        if (alt != NULL) {
            add_text(s, alt, xmlStrlen(alt));
            owe(s, 1);
        }
    }
}

static void html_end(void *context, const xmlChar *name) {
    state *s = context;
    if (is_one_of(name, skipped_html)) {
        if (s->skipped > 0) s->skipped--;
        return;
    }
    if (s->in_title && xmlStrcasecmp(name, (const xmlChar *)"title") == 0) {
        s->in_title = 0;
        s->has_title = 1;
        return;
    }
    if (is_one_of(name, block_html)) owe(s, 2);
    else if (is_one_of(name, cell_html)) owe(s, 1);
}

static void html_characters(void *context, const xmlChar *characters, int length) {
    state *s = context;
    if (s->in_title) {
        if (s->title.length < metadata_limit) {
            append_collapsed(&s->title, (const char *)characters, (size_t)length, metadata_limit);
        }
        return;
    }
    if (s->skipped > 0) return;
    add_text(s, characters, length);
}

void cxml_extract_html(const char *utf8, size_t length, size_t text_limit, cxml_document *document) {
    memset(document, 0, sizeof(*document));
    xmlInitParser();
    htmlSAXHandler sax;
    memset(&sax, 0, sizeof(sax));
    sax.startElement = html_start;
    sax.endElement = html_end;
    sax.characters = html_characters;
    // The HTML parser hands script and style bodies to cdataBlock; skipped like the rest.
    sax.cdataBlock = html_characters;
    sax.initialized = 1;

    state s;
    memset(&s, 0, sizeof(s));
    s.limit = text_limit;
    s.context = htmlCreatePushParserCtxt(&sax, &s, NULL, 0, NULL, XML_CHAR_ENCODING_UTF8);
    if (s.context == NULL) {
        document->failed = 1;
        return;
    }
    // Not HTML_PARSE_NOIMPLIED: without the `html` and `body` it implies, libxml2's push parser
    // reads only the first element of a page that has none (a mail's HTML part, `<!DOCTYPE
    // html><p>…` or `<title>…</title><p>…`) and drops the rest.
    htmlCtxtUseOptions(s.context, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET
                                      | HTML_PARSE_NOBLANKS | HTML_PARSE_IGNORE_ENC);
    feed(&s, htmlParseChunk, utf8, length, NULL);
    htmlFreeParserCtxt(s.context);
    finish(&s, document);
}

// MARK: XML

static const xmlChar dublin_core[] = "http://purl.org/dc/elements/1.1/";

static void xml_start(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                      int namespace_count, const xmlChar **namespaces, int attribute_count, int defaulted_count,
                      const xmlChar **attributes) {
    (void)prefix, (void)namespace_count, (void)namespaces, (void)attribute_count, (void)defaulted_count,
        (void)attributes;
    state *s = context;
    s->depth++;
    s->after_end = 0;
    owe(s, 1);
    if (s->capture_depth != 0 || uri == NULL || xmlStrEqual(uri, dublin_core) == 0) return;
    buffer *target = NULL;
    int is_list = 0;
    if (xmlStrEqual(localname, (const xmlChar *)"title") && !s->has_title) {
        target = &s->title;
    } else if (xmlStrEqual(localname, (const xmlChar *)"creator")) {
        target = &s->authors;
        is_list = 1;
    } else if (xmlStrEqual(localname, (const xmlChar *)"subject")) {
        target = &s->keywords;
        is_list = 1;
    } else if (xmlStrEqual(localname, (const xmlChar *)"description") && s->description.length == 0) {
        target = &s->description;
    }
    if (target == NULL) return;
    s->capture_depth = s->depth;
    s->capture_target = target;
    s->capture_is_list = is_list;
}

static void xml_end(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)localname, (void)prefix, (void)uri;
    state *s = context;
    if (s->capture_depth != 0 && s->capture_depth == s->depth) {
        buffer *target = s->capture_target;
        if (s->capture.length > 0 && target->length < metadata_limit) {
            if (target->length > 0 && s->capture_is_list) buffer_append(target, "\n", 1);
            if (target->length == 0 || s->capture_is_list) {
                buffer_append(target, s->capture.bytes, s->capture.length);
            }
            if (target == &s->title) s->has_title = 1;
        }
        s->capture.length = 0;
        s->capture_depth = 0;
        s->capture_target = NULL;
    }
    s->depth--;
    // `<p>a <em>b</em> c</p>`: an inline element's end is a space, a container's a line break.
    owe(s, s->after_end ? 2 : 1);
    s->after_end = 1;
}

static void xml_characters(void *context, const xmlChar *characters, int length) {
    state *s = context;
    s->after_end = 0;
    if (s->capture_depth != 0 && s->capture.length < metadata_limit) {
        append_collapsed(&s->capture, (const char *)characters, (size_t)length, metadata_limit);
    }
    add_text(s, characters, length);
}

/// A CDATA section cut off by the end of the file (a feed's `<description><![CDATA[…` cut
/// short): libxml2 waits for its `]]>`, hands a long one over 300 bytes at a time, and drops
/// what it still holds when the document ends, so the rest of its text is handed over here, as
/// the section's (nothing can follow it). libxml2 holds its input as UTF-8 whatever the file's
/// encoding.
static int xml_unclosed_cdata(state *s) {
    xmlParserInputPtr input = s->context->input;
    if (s->context->instate != XML_PARSER_CDATA_SECTION || input == NULL || input->cur == NULL
        || input->end == NULL || input->end <= input->cur) {
        return 0;
    }
    size_t length = complete_utf8(input->cur, (size_t)(input->end - input->cur));
    if (length > INT32_MAX) length = INT32_MAX;
    xml_characters(s, input->cur, (int)length);
    return 1;
}

/// What every entity other than the five predefined ones (which the parser resolves before
/// asking) stands for: nothing. None is expanded, none is loaded; and since the entity is
/// "found", the parser raises no error (libxml2 2.9 drops even `&amp;` after such an error).
static xmlEntity empty_entity;

static xmlEntityPtr xml_no_entity(void *context, const xmlChar *name) {
    (void)context, (void)name;
    if (empty_entity.type != XML_ENTITY_DECL) {
        empty_entity.type = XML_ENTITY_DECL;
        empty_entity.name = BAD_CAST "";
        empty_entity.etype = XML_INTERNAL_PREDEFINED_ENTITY;
        empty_entity.content = BAD_CAST "";
        empty_entity.orig = BAD_CAST "";
        empty_entity.length = 0;
    }
    return &empty_entity;
}

void cxml_extract_xml(const char *bytes, size_t length, size_t text_limit, int ignore_declared_encoding,
                      cxml_document *document) {
    memset(document, 0, sizeof(*document));
    xmlInitParser();
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof(sax));
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = xml_start;
    sax.endElementNs = xml_end;
    sax.characters = xml_characters;
    sax.cdataBlock = xml_characters;
    sax.getEntity = xml_no_entity;
    // Parameter entities are never looked up (NULL): a DTD's `%name;` is left unresolved.

    state s;
    memset(&s, 0, sizeof(s));
    s.limit = text_limit;
    // The first bytes let the parser detect the encoding (a BOM, UTF-16's zero bytes).
    size_t head = length < 4 ? length : 4;
    s.context = xmlCreatePushParserCtxt(&sax, &s, bytes, (int)head, NULL);
    if (s.context == NULL) {
        document->failed = 1;
        return;
    }
    // XML_PARSE_IGNORE_ENC: the caller decoded the bytes to UTF-8 itself, whatever the
    // declaration says (libxml2 stops at the first byte its converter refuses).
    xmlCtxtUseOptions(s.context, CXML_GUARDS | XML_PARSE_RECOVER | (ignore_declared_encoding ? XML_PARSE_IGNORE_ENC : 0));
    feed(&s, xmlParseChunk, bytes + head, length - head, xml_unclosed_cdata);
    xmlFreeParserCtxt(s.context);
    finish(&s, document);
}

void cxml_document_clear(cxml_document *document) {
    free(document->text);
    free(document->title);
    free(document->authors);
    free(document->keywords);
    free(document->description);
    memset(document, 0, sizeof(*document));
}
