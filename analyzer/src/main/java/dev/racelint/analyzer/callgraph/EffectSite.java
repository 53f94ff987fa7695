package dev.racelint.analyzer.callgraph;

import com.github.javaparser.ast.expr.MethodCallExpr;
import dev.racelint.analyzer.effects.ApiEffect;
import dev.racelint.analyzer.finding.CodeLocation;
import dev.racelint.analyzer.index.MethodInfo;

/** A call to a catalogued external API inside a scanned method. */
public record EffectSite(MethodInfo method, MethodCallExpr call, ApiEffect effect, CodeLocation location) {}
