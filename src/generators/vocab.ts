// Word lists the scenarios draw from. Changing them changes every generated data set, so append only.
export const FIRST_NAMES = ['Ann', 'Bob', 'Chen', 'Dara', 'Eli', 'Fatima', 'Goran', 'Hana', 'Ivan', 'Jia', 'Kofi', 'Lena', 'Mateo', 'Nia', 'Omar', 'Priya'] as const;
export const LAST_NAMES = ['Smith', 'Okafor', 'Tanaka', 'Novak', 'Silva', 'Haddad', 'Kim', 'Larsen', 'Moreau', 'Rossi', 'Singh'] as const;
export const CITIES = ['Amsterdam', 'Berlin', 'Lisbon', 'Madrid', 'Paris', 'Prague', 'Vienna', 'Warsaw'] as const;
export const DRINKS = ['espresso', 'flat white', 'cappuccino', 'latte', 'cold brew', 'tea', 'hot chocolate'] as const;
export const DRINK_PRICES: Record<string, number> = { espresso: 2.2, 'flat white': 3.4, cappuccino: 3.2, latte: 3.6, 'cold brew': 4.1, tea: 2.5, 'hot chocolate': 3.8 };
export const PRODUCTS = ['apples', 'bread', 'cheese', 'coffee', 'eggs', 'milk', 'pasta', 'rice', 'soap', 'tomatoes'] as const;
export const PRODUCT_PRICES: Record<string, number> = { apples: 0.6, bread: 2.4, cheese: 5.9, coffee: 7.5, eggs: 3.1, milk: 1.2, pasta: 1.7, rice: 2.2, soap: 1.9, tomatoes: 0.8 };
export const PAYMENT_METHODS = ['card', 'card', 'card', 'wallet', 'wallet', 'cash', 'voucher'] as const;
export const TIERS = ['bronze', 'silver', 'gold', 'platinum'] as const;
export const COURIERS = 12;

/** Customer n (1-based) always has the same name, so scenarios that share customers agree on it. */
export function customerName(n: number): string {
  const first = FIRST_NAMES[n % FIRST_NAMES.length];
  const last = LAST_NAMES[Math.floor(n / FIRST_NAMES.length) % LAST_NAMES.length];
  return `${first} ${last}`;
}

export const customerId = (n: number): string => `c-${n}`;
