#ifndef CFOUNDATIONICUDATA_H
#define CFOUNDATIONICUDATA_H

/// Foundation's ICU data, shared by Searchlight's executables instead of linked into each.
///
/// The toolchain's static Foundation links ICU's whole data package (34 MB, the symbol
/// `icudt76_dat`) into every executable that formats a date or knows a time zone. The release
/// builds of `searchlight`, `searchlight-serve` and `searchlight-extractor` define that symbol
/// as an empty package (FoundationICUData.c) instead (`--defsym`, Package.swift), so the linker leaves the
/// data out, and this file's constructor hands Foundation's ICU the one installed copy,
/// `icudt76l.dat` (Packaging/foundation-icu-data), mapped from the executable's folder or from
/// `../lib/searchlight` beside it, before any code runs (and so before a worker's sandbox).
/// Debug builds, and release builds of other executables, keep the linked-in data and skip it.

/// The file's name, and the folder, relative to the executable's, where an install puts it.
#define SEARCHLIGHT_ICU_DATA_FILE "icudt76l.dat"
#define SEARCHLIGHT_ICU_DATA_INSTALLED_FOLDER "../lib/searchlight"

/// The exit status without it (`EX_OSFILE`: a file the system needs is missing); the indexer
/// names it when a worker ends so (SearchlightFiles' `TerminationStatus`).
#define SEARCHLIGHT_ICU_DATA_MISSING_STATUS 72

/// Whether this executable's ICU data is the installed file (1) or linked in (0).
int searchlight_icu_data_is_shared(void);

#endif
