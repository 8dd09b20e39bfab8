'use client';

// The dashboard's charts (Recharts), coloured from the theme's --chart-* and
// surface variables so they follow light and dark. Each chart is a figure
// with a text alternative; the numbers are also in the tables beside them.
import * as React from 'react';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Cell, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

const axis = { stroke: 'var(--border)', tick: { fill: 'var(--muted-foreground)', fontSize: 12 }, tickLine: false } as const;
const tooltip = {
  contentStyle: { background: 'var(--popover)', border: '1px solid var(--border)', borderRadius: 8, color: 'var(--popover-foreground)', fontSize: 12 },
  labelStyle: { color: 'var(--popover-foreground)', fontWeight: 500 },
  itemStyle: { color: 'var(--popover-foreground)' },
  cursor: { fill: 'var(--muted)', stroke: 'var(--border)' },
} as const;
const legend = { wrapperStyle: { fontSize: 12, color: 'var(--muted-foreground)' } } as const;

const number = new Intl.NumberFormat();
const formatNumber = (v: unknown) => (typeof v === 'number' ? number.format(Math.round(v * 100) / 100) : String(v));

function Figure({ label, className, children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <figure role="img" aria-label={label} className={className ?? 'h-64 w-full'}>
      {children}
    </figure>
  );
}

export interface RatePoint {
  start: number;
  /** Average events per minute over the bucket. */
  rate: number;
  events: number;
}

/** Events per minute over the range (an area chart). */
export function EventRateChart({ points, label, formatTick, formatLabel }: { points: RatePoint[]; label: string; formatTick(ms: number): string; formatLabel(ms: number): string }) {
  return (
    <Figure label={label}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: -12 }} accessibilityLayer={false}>
          <defs>
            <linearGradient id="events-fill" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor="var(--chart-1)" stopOpacity={0.35} />
              <stop offset="100%" stopColor="var(--chart-1)" stopOpacity={0.02} />
            </linearGradient>
          </defs>
          <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="start" type="number" scale="time" domain={['dataMin', 'dataMax']} tickFormatter={formatTick} minTickGap={48} {...axis} />
          <YAxis allowDecimals width={48} tickFormatter={formatNumber} {...axis} axisLine={false} />
          <Tooltip
            {...tooltip}
            labelFormatter={(v) => formatLabel(Number(v))}
            formatter={(value, _name, item) => [`${formatNumber(value)} / min (${number.format((item.payload as RatePoint).events)} events)`, 'Events']}
          />
          <Area type="monotone" dataKey="rate" name="Events per minute" stroke="var(--chart-1)" strokeWidth={2} fill="url(#events-fill)" isAnimationActive={false} />
        </AreaChart>
      </ResponsiveContainer>
    </Figure>
  );
}

export interface MissionBar {
  name: string;
  completions: number;
  claims: number;
}

/** Completions and claims per mission (grouped horizontal bars). */
export function MissionBarsChart({ bars, label }: { bars: MissionBar[]; label: string }) {
  const height = Math.max(160, bars.length * 44 + 56);
  return (
    <Figure label={label} className="w-full">
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={bars} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }} barGap={2} accessibilityLayer={false}>
            <CartesianGrid horizontal={false} stroke="var(--border)" strokeDasharray="3 3" />
            <XAxis type="number" allowDecimals={false} tickFormatter={formatNumber} {...axis} />
            <YAxis type="category" dataKey="name" width={140} {...axis} axisLine={false} tickFormatter={(v: string) => (v.length > 20 ? `${v.slice(0, 19)}…` : v)} />
            <Tooltip {...tooltip} formatter={(value, name) => [formatNumber(value), name]} />
            <Legend {...legend} />
            <Bar dataKey="completions" name="Completions" fill="var(--chart-1)" radius={[0, 4, 4, 0]} isAnimationActive={false} />
            <Bar dataKey="claims" name="Claims" fill="var(--chart-2)" radius={[0, 4, 4, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </Figure>
  );
}

export interface CurrencyBar {
  currency: string;
  amount: number;
}

const CURRENCY_COLORS = ['var(--chart-3)', 'var(--chart-4)', 'var(--chart-5)', 'var(--chart-2)', 'var(--chart-1)'];

/** Currency granted per currency (vertical bars, one colour each). */
export function CurrencyChart({ bars, label }: { bars: CurrencyBar[]; label: string }) {
  return (
    <Figure label={label} className="h-56 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={bars} margin={{ top: 8, right: 12, bottom: 0, left: -8 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="currency" {...axis} />
          <YAxis allowDecimals={false} width={52} tickFormatter={formatNumber} {...axis} axisLine={false} />
          <Tooltip {...tooltip} formatter={(value) => [formatNumber(value), 'Granted']} />
          <Bar dataKey="amount" name="Granted" radius={[4, 4, 0, 0]} maxBarSize={72} isAnimationActive={false}>
            {bars.map((b, i) => (
              <Cell key={b.currency} fill={CURRENCY_COLORS[i % CURRENCY_COLORS.length]} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </Figure>
  );
}
