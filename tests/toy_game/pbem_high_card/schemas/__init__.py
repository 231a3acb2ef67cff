"""High Card's schemas: orders, standing orders and the state."""
