"""The Axis & Allies family's schemas: orders, standing orders and the state, for every edition."""
