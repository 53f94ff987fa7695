package dev.racelint.analyzer.tx;

import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import dev.racelint.analyzer.index.Expressions;
import dev.racelint.analyzer.index.MethodInfo;
import dev.racelint.analyzer.index.ProgramIndex;
import dev.racelint.analyzer.index.TypeInfo;
import dev.racelint.analyzer.index.TypeRef;
import dev.racelint.analyzer.resolve.LocalVariables;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * JDBC work on a connection the code takes itself from a connection pool it builds itself: a field of
 * the class whose every assignment is {@code new} of a plain pool ({@code new HikariDataSource(config)}),
 * and a call whose receiver chain ({@code rs.next()}, {@code con.createStatement().executeQuery(..)})
 * goes back, through locals initialised once, to {@code field.getConnection()}. A Spring transaction
 * binds a connection of its own to the thread; {@code getConnection()} on a plain pool hands out
 * another one, so these statements do not run on that transaction and hold nothing on it. (A
 * {@code TransactionAwareDataSourceProxy} or a JTA pool would join it: neither is a plain pool.)
 */
final class OwnPoolConnections {

    /** Connection pools that hand out plain connections, unaware of Spring or JTA transactions. */
    private static final Set<String> PLAIN_POOLS = Set.of("com.zaxxer.hikari.HikariDataSource",
            "com.alibaba.druid.pool.DruidDataSource", "org.apache.commons.dbcp2.BasicDataSource",
            "org.apache.commons.dbcp.BasicDataSource", "org.apache.tomcat.jdbc.pool.DataSource",
            "com.mchange.v2.c3p0.ComboPooledDataSource", "org.springframework.jdbc.datasource.DriverManagerDataSource",
            "org.springframework.jdbc.datasource.SimpleDriverDataSource");

    /** Receivers and locals followed back at most. */
    private static final int MAX_STEPS = 16;

    /** Sees no pool apart from the transaction (for JDBC scopes, whose connection is the code's own). */
    static final OwnPoolConnections NONE = new OwnPoolConnections(null);

    private final ProgramIndex index;

    OwnPoolConnections(ProgramIndex index) {
        this.index = index;
    }

    /** Does {@code call}, in {@code method}, run on a connection taken from a pool the class built itself? */
    boolean onOwnPool(MethodCallExpr call, MethodInfo method) {
        if (index == null) {
            return false;
        }
        Expression e = call;
        for (int step = 0; step < MAX_STEPS; step++) {
            e = Expressions.withoutParenthesesAndCasts(e);
            if (e instanceof MethodCallExpr m) {
                if (m.getNameAsString().equals("getConnection") && m.getArguments().isEmpty() && m.getScope().isPresent()
                        && ownPoolField(m.getScope().get(), method)) {
                    return true;
                }
                if (m.getScope().isEmpty()) {
                    return false;
                }
                e = m.getScope().get();
            } else if (e instanceof NameExpr name
                    && LocalVariables.declarationOf(name.getNameAsString(), name) instanceof VariableDeclarator local
                    && local.getInitializer().isPresent() && !LocalVariables.reassigned(local)) {
                e = local.getInitializer().get();
            } else {
                return false;
            }
        }
        return false;
    }

    /** {@code f} or {@code this.f}: a field of {@code method}'s class that only ever holds a plain pool it made. */
    private boolean ownPoolField(Expression receiver, MethodInfo method) {
        Expression e = Expressions.withoutParenthesesAndCasts(receiver);
        String name;
        if (e instanceof NameExpr n && LocalVariables.declarationOf(n.getNameAsString(), n) == null) {
            name = n.getNameAsString();
        } else if (e instanceof FieldAccessExpr f && f.getScope().isThisExpr()) {
            name = f.getNameAsString();
        } else {
            return false;
        }
        TypeInfo owner = method.declaringType();
        VariableDeclarator field = owner.fieldDeclarator(name);
        if (field == null) {
            return false;
        }
        List<Expression> values = new ArrayList<>();
        field.getInitializer().ifPresent(values::add);
        for (AssignExpr assign : owner.declaration().findAll(AssignExpr.class)) {
            Expression target = assign.getTarget();
            boolean toField = target instanceof NameExpr n && n.getNameAsString().equals(name)
                    && LocalVariables.declarationOf(name, n) == null
                    || target instanceof FieldAccessExpr f && f.getScope().isThisExpr() && f.getNameAsString().equals(name);
            if (toField) {
                values.add(assign.getValue());
            }
        }
        if (values.isEmpty()) {
            return false; // injected or set from outside: what pool it is, the code does not say
        }
        for (Expression value : values) {
            if (!(Expressions.withoutParenthesesAndCasts(value) instanceof ObjectCreationExpr created)) {
                return false;
            }
            TypeRef type = index.resolveType(created.getType(), created);
            if (type.candidates().stream().noneMatch(PLAIN_POOLS::contains)) {
                return false;
            }
        }
        return true;
    }
}
