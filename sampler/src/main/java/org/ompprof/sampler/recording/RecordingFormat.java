package org.ompprof.sampler.recording;

import java.nio.charset.StandardCharsets;
import org.ompprof.sampler.record.Le;
import org.ompprof.sampler.wire.Wire;

/**
 * The {@code .ompprof} container. All integers little-endian.
 *
 * <pre>
 * file    = header section* END-section
 * header  = "OMPPROF\0" u32:format_version u32:reserved(0)                      16 bytes
 * section = u32:kind u32:flags u64:raw_length u64:stored_length u32:crc32c     28 bytes
 *           stored_length bytes (deflated when flags has DEFLATE; the CRC covers these bytes;
 *           SAMPLES_ONLY: a RECORDS section holding samples alone)
 * </pre>
 *
 * Section payloads (after inflating): METADATA, THREADS, MODULES, STATS are tables (see
 * SectionCodec); MODULE_IMAGE = u64 module_id, u64 offset_in_image, bytes; RECORDS = u32
 * thread_seq, u32 reserved, then whole wire records of that thread in time order (a thread's
 * records may span several RECORDS sections, consecutive in the file); END = u32 number of
 * sections before it, and nothing may follow it.
 *
 * <p>Version 2 adds the profile sections (FRAMES, METRICS, TREE, TIMELINE = u32 thread_seq,
 * u32 reserved, then samples; STITCH = a counter table); their payloads are calltree's codecs.
 * Version 1 files (raw recordings only) still read. Version 3 adds the SAMPLES_ONLY flag. Version 4 adds the
 * REGIONS rows' body nodes and the LINES call lines (calltree's codecs read version 3 profiles without them).
 * Version 5 adds samples that carry rbx before their snapshot (Wire.SAMPLE_RBX) and a second window of the stack
 * after it (Wire.SAMPLE_UPPER), which earlier readers would take for damaged records.
 */
public final class RecordingFormat {
    static final byte[] MAGIC = "OMPPROF\0".getBytes(StandardCharsets.US_ASCII);
    public static final int VERSION = 5;
    static final int FILE_HEADER_SIZE = 16;
    static final int SECTION_HEADER_SIZE = 28;
    static final int FLAG_DEFLATE = 1;
    /**
     * A RECORDS section whose records are all samples: a read of other records (the stitcher's index, for the
     * callback records) skips it without inflating it. A sample-heavy run's sections are nearly all of this kind.
     */
    static final int FLAG_SAMPLES_ONLY = 2;

    static final int KNOWN_FLAGS = FLAG_DEFLATE | FLAG_SAMPLES_ONLY;
    /** Big sections are cut into chunks of about this many raw bytes so memory stays bounded. */
    static final int CHUNK = 4 << 20;
    /**
     * RECORDS sections are smaller, so that a section inflated for reading is still in the
     * cache when its records are decoded and unwound (deflate's window is 32 KiB: no loss).
     */
    static final int RECORDS_CHUNK = 256 << 10;
    /** No section is ever larger raw (a chunk may hold one record as large as a ring). */
    static final long MAX_RAW = 256L << 20;
    /** Deflate cannot expand more than about 1032:1; a larger claimed ratio is corruption. */
    static final long MAX_DEFLATE_RATIO = 1100;

    static final int RECORDS_PREFIX = 8;
    static final int IMAGE_PREFIX = 16;

    private RecordingFormat() {}

    /** The type of the wire record whose header is at {@code at} (little-endian). */
    static int recordType(byte[] records, int at) {
        return Le.u16(records, at + Wire.RecordHeader.TYPE);
    }
}
