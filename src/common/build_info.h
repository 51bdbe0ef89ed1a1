// What build of strobe this is, for the provenance of recorded results.
#pragma once

namespace strobe {

/// The commit strobe was built from, as `git describe --always --dirty` printed it at build
/// time ("unknown" outside a git checkout).
const char* build_commit();

}  // namespace strobe
