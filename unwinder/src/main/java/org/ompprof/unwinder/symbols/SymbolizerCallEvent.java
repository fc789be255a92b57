package org.ompprof.unwinder.symbols;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code ompprof.SymbolizerCall}: one look-up of pcs not yet cached, through
 * llvm-symbolizer or the module's symbol table, with its duration.
 */
@Name("ompprof.SymbolizerCall")
@Label("Symbolizer Call")
@Category({"ompprof", "Profile Build"})
@Description("Pcs of one module named by llvm-symbolizer or its symbol table (cache misses only)")
@StackTrace(false)
final class SymbolizerCallEvent extends jdk.jfr.Event {
    @Label("Module")
    String module;

    @Label("Pcs")
    @Description("Addresses looked up in this call")
    int pcs;

    @Label("Source")
    @Description("llvm-symbolizer, or symbol table when the module has no usable debug info")
    String source;
}
