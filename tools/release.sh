#!/usr/bin/env bash
# Tags a release (make release): the version in VERSION, once CHANGELOG.md has its section with
# a date, debian/changelog an entry for it, and the work tree is committed.  The steps, in the
# README ("Builds and releases"): write the version into VERSION and debian/changelog, date its
# CHANGELOG.md section, commit, `make release`, push the tag.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(cat VERSION)
fail() { echo "release: $*" >&2; exit 1; }
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "VERSION is not X.Y.Z: '$version'"
grep -Eq "^## \[$version\] - [0-9]{4}-[0-9]{2}-[0-9]{2}$" CHANGELOG.md ||
  fail "CHANGELOG.md has no section '## [$version] - YYYY-MM-DD' (dated)"
head -1 debian/changelog | grep -q "^starfish ($version)" ||
  fail "debian/changelog's first entry is not of $version"
[ -z "$(git status --porcelain)" ] || fail "the work tree has changes not committed"
git rev-parse -q --verify "refs/tags/v$version" >/dev/null && fail "v$version is tagged already"
git tag -a "v$version" -m "starfish $version"
echo "tagged v$version at $(git rev-parse --short HEAD); push it: git push origin v$version"
