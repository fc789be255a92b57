package org.ompprof.unwinder.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.symbols.SymbolsFixture;

class ModuleImagesTest {
    private static final long BIAS = 0x5555_0000_0000L;

    @Test
    void fileWithMatchingBuildIdIsSharedAcrossRequests() throws Exception {
        Path file = SymbolsFixture.binaries().debug();
        String id = ElfFile.read(file).buildId().orElseThrow();
        ModuleImages images = new ModuleImages();
        ImageResolution.Resolved a = resolved(images.resolve(ModuleImage.onDisk(file.toString(), id, 0, 0, BIAS)));
        ImageResolution.Resolved b =
                resolved(images.resolve(ModuleImage.onDisk(file.toString(), id.toUpperCase(), 0, 0, 0)));
        assertSame(a.image(), b.image(), "one parsed image for both");
        assertSame(a.module().cfi(), b.module().cfi(), "one CFI (and row cache) for both");
        assertEquals(BIAS, a.module().bias());
        assertEquals(0, b.module().bias());
        assertEquals(Optional.of(new ImageOrigin.OnDisk(file)), images.originOf(a.module()));
    }

    @Test
    void buildIdMismatchIsUnavailable() throws Exception {
        Path file = SymbolsFixture.binaries().debug();
        String reason =
                unavailable(new ModuleImages().resolve(ModuleImage.onDisk(file.toString(), "deadbeef", 0, 0, BIAS)));
        assertTrue(reason.contains("build id") && reason.contains("deadbeef") && reason.contains("rebuilt"), reason);
    }

    @Test
    void missingFileIsUnavailable() {
        String reason = unavailable(
                new ModuleImages().resolve(ModuleImage.onDisk("/nonexistent/libgone.so", "abcd", 10, 10, BIAS)));
        assertTrue(reason.contains("/nonexistent/libgone.so") && reason.contains("gone"), reason);
    }

    @Test
    void withoutBuildIdSizeAndMtimeDecide() throws Exception {
        Path file = SymbolsFixture.binaries().noBuildId();
        assertTrue(ElfFile.read(file).buildId().isEmpty());
        long size = Files.size(file), mtime = Files.getLastModifiedTime(file).to(TimeUnit.NANOSECONDS);
        ModuleImages images = new ModuleImages();
        resolved(images.resolve(ModuleImage.onDisk(file.toString(), "", size, mtime, BIAS)));
        String reason = unavailable(
                images.resolve(ModuleImage.onDisk(file.toString(), "", size, mtime - 1_000_000_000L, BIAS)));
        assertTrue(reason.contains("no build id") && reason.contains("changed"), reason);
    }

    @Test
    void embeddedImageComesFirst() throws Exception {
        byte[] bytes = Files.readAllBytes(SymbolsFixture.binaries().debug());
        String id = ElfFile.parse(bytes).buildId().orElseThrow();
        ModuleImages images = new ModuleImages();
        ImageResolution.Resolved r =
                resolved(images.resolve(ModuleImage.embedded("/gone/app", id, bytes.length, 0, BIAS, () -> bytes)));
        assertInstanceOf(ImageOrigin.InMemory.class, images.originOf(r.module()).orElseThrow());
        assertEquals("/gone/app", r.module().name());
    }

    @Test
    void randomBytesGiveAClearReason() {
        byte[] noise = new byte[4096];
        new Random(42).nextBytes(noise);
        String reason = unavailable(new ModuleImages()
                .resolve(ModuleImage.embedded("/x/libnoise.so", "", noise.length, 0, 0, () -> noise)));
        assertTrue(
                reason.contains("libnoise.so")
                        && reason.contains("not a usable ELF file")
                        && reason.contains("bad magic"),
                reason);
    }

    @Test
    void truncatedElfGivesAClearReason() throws Exception {
        byte[] bytes = Files.readAllBytes(SymbolsFixture.binaries().debug());
        byte[] head = java.util.Arrays.copyOf(bytes, 200);
        String reason = unavailable(
                new ModuleImages().resolve(ModuleImage.embedded("/x/cut", "", head.length, 0, 0, () -> head)));
        assertTrue(reason.contains("not a usable ELF file") && reason.contains("past the end"), reason);
    }

    @Test
    void unreadableEmbeddedImageGivesTheCause() {
        String reason = unavailable(new ModuleImages().resolve(ModuleImage.embedded("/x/liby.so", "", 1, 0, 0, () -> {
            throw new IOException("recording truncated");
        })));
        assertTrue(reason.contains("recording truncated"), reason);
    }

    /** Many threads asking at once read the file once and share the result. */
    @Test
    void concurrentRequestsLoadOnce() throws Exception {
        byte[] bytes = Files.readAllBytes(SymbolsFixture.binaries().debug());
        AtomicInteger reads = new AtomicInteger();
        ModuleImages images = new ModuleImages();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<ImageResolution>> futures = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                long bias = i * 0x1000_0000L;
                futures.add(pool.submit(
                        () -> images.resolve(ModuleImage.embedded("/gone/app", "", bytes.length, 7, bias, () -> {
                            reads.incrementAndGet();
                            return bytes;
                        }))));
            }
            ElfFile first = resolved(futures.getFirst().get()).image().elf();
            for (Future<ImageResolution> f : futures)
                assertSame(first, resolved(f.get()).image().elf());
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, reads.get());
        assertEquals(1, images.size());
    }

    private static ImageResolution.Resolved resolved(ImageResolution r) {
        if (r instanceof ImageResolution.Unavailable u) throw new AssertionError("unavailable: " + u.reason());
        return (ImageResolution.Resolved) r;
    }

    private static String unavailable(ImageResolution r) {
        return assertInstanceOf(ImageResolution.Unavailable.class, r).reason();
    }
}
