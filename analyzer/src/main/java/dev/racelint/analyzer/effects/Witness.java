package dev.racelint.analyzer.effects;

import dev.racelint.analyzer.callgraph.CallEdge;
import dev.racelint.analyzer.callgraph.EffectSite;

/**
 * How a method reaches an effect: directly ({@code via == null}) or through a call whose callee
 * reaches it. {@code depth} counts the calls in between; summaries keep the shortest.
 */
public record Witness(EffectSite site, CallEdge via, int depth) {}
