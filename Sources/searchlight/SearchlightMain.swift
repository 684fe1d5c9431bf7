import SearchlightCommands

/// Every command; `serve` hands over to `searchlight-serve` (see ``ServeLauncher``).
@main
extension SearchlightCommand {}
