package org.ompprof.ui;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Timeout;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.ProfileReader;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.recording.Recording;

/**
 * Coverage-guided fuzzing of the {@code .ompprof} reader (with Jazzer): the container, its
 * tables (metadata, threads, modules, statistics) and the profile's sections, as {@code info}
 * and {@code report} read them. The first byte of an input is a mode: when odd, the section
 * checksums are recomputed before reading, so that mutated bytes get past them to the decoders
 * (a fuzzer cannot forge a CRC); the rest is the file. Reading either succeeds or fails with
 * one {@link UserError} naming the problem; anything else thrown, an OutOfMemoryError or a hang
 * is a finding. A raw recording's records are decoded, not unwound (that needs the program).
 */
class ProfileFileFuzzTest {
    private static final Path FILE = scratch();

    @FuzzTest(maxDuration = "60s")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void profileFile(byte[] input) throws IOException {
        if (input.length == 0) return;
        byte[] file = Arrays.copyOfRange(input, 1, input.length);
        if ((input[0] & 1) != 0) fixChecksums(file);
        Files.write(FILE, file);
        try (Recording r = Recording.open(FILE)) {
            if (!r.isProfile()) {
                r.records().count();
                return;
            }
            Profile p = ProfileReader.read(r);
            CallingContextTree tree = p.tree();
            for (int m = 0; m < tree.metrics().size(); m++) tree.total(m);
            InfoCommand.report(r, file.length);
        } catch (UserError e) {
            assertFalse(e.getMessage() == null || e.getMessage().isBlank(), "one line that says what is wrong");
        }
    }

    /** Sets each section's CRC32C to its payload's, as far as the section headers can be followed. */
    private static void fixChecksums(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        long pos = 16;
        while (pos + 28 <= file.length) {
            long stored = b.getLong((int) pos + 16);
            long payload = pos + 28;
            if (stored < 0 || stored > file.length - payload) return;
            CRC32C crc = new CRC32C();
            crc.update(file, (int) payload, (int) stored);
            b.putInt((int) pos + 24, (int) crc.getValue());
            pos = payload + stored;
        }
    }

    private static Path scratch() {
        try {
            Path p = Files.createTempFile("ompprof-fuzz", ".ompprof");
            p.toFile().deleteOnExit();
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
