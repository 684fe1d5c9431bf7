import Foundation
import Searchlight

/// What the file indexer writes into an index beside the items: a ``FileIndexReader`` that is
/// also the library's ``Searchlight/IndexWriter``, with batches that carry the domains' states,
/// each domain's state, and in a shared index the machine and folder a domain indexes.
///
/// The scanner, the watcher and the commands that change an index use it through this
/// protocol; both backends conform (``FileIndexReader`` says where).
///
/// ```swift
/// let index: any FileIndexWriter = try SearchableIndex(path: path)
/// try index.apply(batch, states: [domain: state])
/// ```
public protocol FileIndexWriter: FileIndexReader, IndexWriter {
    /// Applies a batch in one transaction with the domains' states: all of it lands, or none
    /// (a watch window's changes and the health that counts them).
    func apply(_ batch: IndexBatch, states: [String: DomainState]) throws
    /// Stores the file indexer's state of a domain, creating the domain if needed.
    func setState(_ state: DomainState, domain: String) throws
    /// Records the machine and folder a domain indexes: a shared index holds the domains of
    /// many machines (Docs/Contract.md#shared-index). An index on one machine need not.
    func setOrigin(host: String, root: String, domain: String) throws
}
