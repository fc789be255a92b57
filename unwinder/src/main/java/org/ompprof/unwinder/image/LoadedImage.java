package org.ompprof.unwinder.image;

import org.ompprof.unwinder.cfi.ModuleCfi;
import org.ompprof.unwinder.elf.ElfFile;

/** A parsed image with its call-frame information, shared by every module loaded from it. */
public record LoadedImage(ElfFile elf, ModuleCfi cfi, ImageOrigin origin) {}
