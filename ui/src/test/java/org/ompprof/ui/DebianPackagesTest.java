package org.ompprof.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DebianPackagesTest {
    @Test
    void parsesDpkgSearchOutput() {
        assertEquals(
                Optional.of("libgraphicsmagick-q16-3t64"),
                DebianPackages.parse(
                        "libgraphicsmagick-q16-3t64:amd64: /usr/lib/x86_64-linux-gnu/libGraphicsMagick-Q16.so.3\n"));
        assertEquals(Optional.of("dpkg"), DebianPackages.parse("dpkg: /usr/bin/dpkg\n"));
        assertEquals(Optional.empty(), DebianPackages.parse("dpkg-query: no path found matching pattern /x\n"));
    }

    @Test
    void asksDpkgForARealFile() {
        assertEquals(Optional.of("dpkg"), DebianPackages.owner("/usr/bin/dpkg"));
        assertEquals(Optional.empty(), DebianPackages.owner("/tmp/no/such/file"));
    }

    @Test
    void oneLinePerModuleWithItsPackage() {
        List<String> lines = UnnamedFrames.lines(Map.of("/usr/bin/gm", 3), p -> Optional.of("graphicsmagick"));
        assertEquals(
                List.of("3 unnamed frames in /usr/bin/gm (to name them, install graphicsmagick-dbgsym from Debian's"
                        + " debug archive)"),
                lines);
    }
}
