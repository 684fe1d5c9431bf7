def parse_url(raw_url: str) -> dict:
    """Split rawURL into scheme/host; see RFC-3986."""
    return {"scheme": raw_url.split("://")[0], "isHTTPS": raw_url.startswith("https")}
