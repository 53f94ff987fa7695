package dev.racelint.analyzer.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which Spring Security expressions require an authority (the catalogue's authentication-only functions as data). */
class PrivilegedExpressionTest {

    private static final Set<String> AUTHENTICATION_ONLY = Set.of("isAuthenticated", "isFullyAuthenticated",
            "isAnonymous", "isRememberMe", "permitAll", "denyAll");

    private static Optional<String> requirement(String expression) {
        return PrivilegedEntryPoints.expressionRequirement(expression, AUTHENTICATION_ONLY);
    }

    @Test
    void anAuthorityRoleOrBeanPermissionCheckIsARequirement() {
        assertThat(requirement("hasAuthority('system:menu:add')")).contains("system:menu:add");
        assertThat(requirement("hasRole(\"ADMIN\")")).contains("ADMIN");
        assertThat(requirement("@ss.hasPermi('system:user:add')")).contains("system:user:add");
        assertThat(requirement("hasAnyAuthority( 'a:read', 'a:write' )")).contains("a:read or a:write");
        assertThat(requirement("isAuthenticated() and hasRole('OPS')")).contains("OPS");
        assertThat(requirement("hasRole('OPS') or (hasRole('DEV') and isAuthenticated())")).contains("OPS or DEV");
    }

    @Test
    void authenticationOnlyIsNoRequirement() {
        assertThat(requirement("isAuthenticated()")).isEmpty();
        assertThat(requirement("permitAll()")).isEmpty();
        assertThat(requirement("permitAll")).isEmpty();
        assertThat(requirement("isAnonymous() or isFullyAuthenticated()")).isEmpty();
        assertThat(requirement("denyAll()")).isEmpty();
    }

    @Test
    void anAlternativeWithoutAnAuthorityOrANegationLetsOthersIn() {
        assertThat(requirement("hasRole('ADMIN') or isAuthenticated()")).isEmpty();
        assertThat(requirement("hasRole('ADMIN') || #owner == authentication.name")).isEmpty();
        assertThat(requirement("!hasRole('GUEST')")).isEmpty();
        assertThat(requirement("not hasRole('GUEST')")).isEmpty();
        assertThat(requirement("@guard.isOwner(#id)")).isEmpty();
    }

    @Test
    void orInsideAQuotedAuthorityOrANameIsNoAlternative() {
        assertThat(requirement("hasAuthority('orders:read or write')")).contains("orders:read or write");
        assertThat(requirement("hasAuthority('vendor:edit')")).contains("vendor:edit");
    }
}
