package org.ompprof.calltree.profile;

import java.util.function.Function;

import org.ompprof.sampler.recording.BadSectionException;
import org.ompprof.sampler.recording.Recording;

/** Lets the container report a calltree codec's failure at the right file offset. */
final class ProfileSections {
    private ProfileSections() {}

    static <T> Recording.SectionDecoder<T> decoder(Function<byte[], T> codec) {
        return payload -> {
            try {
                return codec.apply(payload);
            } catch (ProfileFormatException e) {
                throw new BadSectionException(e.offset(), e.getMessage());
            }
        };
    }
}
