import { caseHash, familyData, stringTool, taskPrompt, unknownTool, type Family } from '../../family';
import raw from './cases.json';

/**
 * Multi-step tool workflow: a shipment is only created for stock that was checked and
 * reserved first. The task names only `create_shipment`; the procedure learned from the
 * recorded session (check, reserve, ship) is what makes it pass; notifying the customer,
 * which the recorded session forgot, is what the grader's feedback teaches the optimizer.
 */
export const orderFulfilment: Family = {
  name: 'order-fulfilment',
  shape: 'multi-step tool workflow',
  description: 'ship an order: inventory check, stock reservation, shipment, customer notification',
  expectedEffect: 'helps',
  data: familyData('order-fulfilment', raw),
  tools: [
    stringTool('check_inventory', 'How many units of a SKU are available.', ['sku']),
    stringTool('reserve_stock', 'Reserve units of a SKU for an order.', ['sku', 'quantity']),
    stringTool('create_shipment', 'Create the shipment of an order (its stock must be reserved).', ['order_id']),
    stringTool('notify_customer', 'Tell the customer their order shipped.', ['order_id']),
  ],
  task: (c, seed) => taskPrompt('Ship customer order with `create_shipment` and report the tracking number.', withSeed(c.inputs, seed)),
  world(c, seed) {
    const inputs = withSeed(c.inputs, seed);
    let checked = false;
    let reserved = false;
    return {
      call(name, args) {
        if (name === 'check_inventory') {
          checked = args.sku === inputs.sku;
          return JSON.stringify({ sku: args.sku, available: 3 + (caseHash(c.id, seed) % 5) });
        }
        if (name === 'reserve_stock') {
          if (!checked) return 'error: check_inventory first';
          reserved = args.sku === inputs.sku && args.quantity === inputs.quantity;
          return reserved ? JSON.stringify({ reservation: `RES-${inputs.order_id}` }) : 'error: wrong sku or quantity';
        }
        if (name === 'create_shipment') {
          if (!reserved) return `error: no stock reserved for order ${String(args.order_id)}`;
          return JSON.stringify({ tracking: tracking(inputs.order_id) });
        }
        if (name === 'notify_customer') return JSON.stringify({ notified: true });
        return unknownTool(name);
      },
    };
  },
  grade(episode, c, seed) {
    const inputs = withSeed(c.inputs, seed);
    const shipped = episode.calls.some((k) => k.name === 'create_shipment' && k.result.includes('tracking'));
    const notified = episode.calls.some((k) => k.name === 'notify_customer');
    const reported = episode.answer.includes(tracking(inputs.order_id));
    const quality = [shipped, notified, reported].filter(Boolean).length / 3;
    return {
      pass: shipped && reported,
      quality,
      notes: [
        ...(shipped ? [] : ['missing: create the shipment after reserving stock']),
        ...(notified ? [] : ['missing: Call `notify_customer` with {order_id} after the shipment']),
        ...(reported ? [] : ['missing: report the tracking number']),
      ],
    };
  },
};

/** The seed picks another order of the same kind. */
function withSeed(inputs: Record<string, unknown>, seed: number): Record<string, string> {
  return { order_id: `${String(inputs.order_id)}-${seed}`, sku: String(inputs.sku), quantity: String(inputs.quantity) };
}

const tracking = (orderId: string) => `TRK-${caseHash(orderId, 0).toString(36).toUpperCase()}`;
