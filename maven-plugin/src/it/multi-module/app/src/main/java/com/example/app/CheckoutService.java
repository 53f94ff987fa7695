package com.example.app;

import com.example.client.PaymentClient;
import org.springframework.transaction.annotation.Transactional;

public class CheckoutService {

    private final PaymentClient payments;

    public CheckoutService(PaymentClient payments) {
        this.payments = payments;
    }

    @Transactional
    public String checkout(String orderId) {
        return payments.charge(orderId);
    }
}
